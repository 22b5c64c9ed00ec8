package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.Lease;
import io.distlock.LeaseModel;
import io.distlock.LockInfo;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §12 Names: any non-empty string within the store's limit names a lock; bad names and options are refused. */
public interface NameRules extends TckSupport {

    /** How many distinct names §12.3 holds at once; a store may lower it only with a reason in its docs. */
    default int manyNamesCount() {
        return 10_000;
    }

    @Test
    @DisplayName("§12.1 unicode, spaces, '/', ':', '{}', '..' and 200-character names work and do not collide")
    default void rule_12_1_unusualNamesWorkAndDoNotCollide() {
        List<String> suffixes = List.of("plain", "with space", "a/b", "a/b/", "/a", "a:b", "{tag}x", "..", ".",
                "ünïcødé ✓ 锁", "emoji 🔒", "a%2Fb", "a\\b", "x".repeat(200 - tck().name("").length()),
                "tab\there", "a*b?c");
        LockStore a = tck().client();
        LockStore b = tck().client();
        List<Lease> leases = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String suffix : suffixes) {
            String name = tck().name(suffix);
            names.add(name);
            Lease lease = a.lock(name).tryAcquire().orElseThrow(
                    () -> new AssertionError("name '" + name + "' collided with another or failed"));
            assertThat(lease.lockName()).isEqualTo(name);
            leases.add(lease);
        }
        assertThat(names).hasSameSizeAs(suffixes);
        for (String suffix : suffixes) {
            assertThat(b.lock(tck().name(suffix)).tryAcquire()).as("'" + suffix + "' is held").isEmpty();
        }
        leases.forEach(Lease::release);
        for (String suffix : suffixes) {
            b.lock(tck().name(suffix)).tryAcquire().orElseThrow(() -> new AssertionError("'" + suffix + "' not freed"))
                    .release();
        }
    }

    @Test
    @DisplayName("§12.2 null, empty and over-long names, and non-positive lease times, are refused with clear messages")
    default void rule_12_2_badNamesAndOptionsRefused() {
        LockStore store = tck().client();
        assertThatThrownBy(() -> store.lock(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("name");
        assertThatThrownBy(() -> store.lock("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> store.lock("n".repeat(1_000_000))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most");
        assertThatThrownBy(() -> store.lock("x", null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("options");
        assertThatThrownBy(() -> LockOptions.defaults().withLeaseTime(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaseTime");
        assertThatThrownBy(() -> LockOptions.defaults().withLeaseTime(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaseTime");
    }

    @Test
    @DisplayName("§12.5 a name the API refuses is refused at every door that takes a name (lock, semaphore, admin "
            + "force-release) and never touches the lock of the name a store would encode it as")
    default void rule_12_5_everyDoorRefusesABadNameAndLeavesOtherNamesAlone() {
        LockStore holder = tck().client();
        LockStore other = tck().client();
        String near = tck().name("a?"); // an unpaired surrogate becomes '?' where names are kept as UTF-8
        List<String> refused = List.of("", tck().name("a\uD800"), "n".repeat(other.features().maxNameLength() + 1));
        try (Lease held = holder.lock(near).tryAcquire().orElseThrow()) {
            for (String bad : refused) {
                String shown = bad.length() > 40 ? bad.length() + " characters" : "'" + bad + "'";
                assertThat(catchThrowable(() -> other.lock(bad))).as("lock %s", shown)
                        .isInstanceOf(IllegalArgumentException.class);
                if (other.features().semaphores()) {
                    assertThat(catchThrowable(() -> other.semaphore(bad, 2))).as("semaphore %s", shown)
                            .isInstanceOf(IllegalArgumentException.class);
                }
                if (other.features().admin()) {
                    assertThat(catchThrowable(() -> other.admin().forceRelease(bad)))
                            .as("force-release of %s", shown).isInstanceOf(IllegalArgumentException.class);
                    assertThat(catchThrowable(() -> other.admin().forceRelease(bad, held.fencingToken())))
                            .as("force-release of %s under the holder's token", shown)
                            .isInstanceOf(IllegalArgumentException.class);
                }
            }
            assertThat(held.isValid()).as("'%s' after the refused names", near).isTrue();
            assertThat(other.lock(near).tryAcquire()).as("'%s' while its holder holds it", near).isEmpty();
        }
    }

    @Test
    @DisplayName("§12.7 a name the store's lock refuses (a NUL where the database cannot store one) is refused by "
            + "every admin door with an IllegalArgumentException too, and one it takes is answered there: never a "
            + "store error")
    default void rule_12_7_adminDoorsTakeOrRefuseANameAsTheLockDoes() {
        LockStore store = tck().client();
        if (!store.features().admin()) {
            return; // nothing to check: no admin view
        }
        String name = tck().name("a\u0000b");
        boolean refused;
        try {
            store.lock(name).tryAcquire().ifPresent(Lease::release);
            refused = false;
        } catch (IllegalArgumentException e) {
            refused = true;
        }
        List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> doors = new ArrayList<>(List.of(
                () -> store.admin().forceRelease(name), () -> store.admin().forceRelease(name, 1),
                () -> store.admin().list(name, 10)));
        if (store.admin().listsPermits()) {
            doors.add(() -> store.admin().listPermits(name, 10));
        }
        for (int door = 0; door < doors.size(); door++) {
            Throwable thrown = catchThrowable(doors.get(door));
            if (refused) {
                assertThat(thrown).as("admin door %d for a name the lock refused", door)
                        .isInstanceOf(IllegalArgumentException.class);
            } else {
                assertThat(thrown).as("admin door %d for a name the lock took", door).isNull();
            }
        }
    }

    @Test
    @DisplayName("§12.6 a name's line breaks and control characters forge no line in a log or an exception message, "
            + "and a long name is cut there")
    default void rule_12_6_namesInMessagesForgeNoLineAndAreCut() {
        LockStore store = tck().client();
        String forging = tck().name("x\n[ERROR] forged\r[ERROR] forged\u2028[ERROR] forged\u0085[ERROR] forged");
        String longName = tck().name("n").concat("n".repeat(Math.max(0, store.features().maxNameLength()
                - tck().name("n").length())));
        List<String> messages = new ArrayList<>();
        String logged = LogCapture.ofDistlockDuring(() -> {
            for (String name : List.of(forging, longName)) {
                try (Lease held = store.lock(name).acquire()) {
                    // a nested acquisition with other options is refused with a message naming the lock
                    messages.add(catchThrowable(() -> store.lock(name, LockOptions.defaults()
                            .withLeaseTime(Duration.ofSeconds(77))).tryAcquire()).getMessage());
                    if (store.features().admin()) {
                        assertThat(store.admin().forceRelease(name)).as("force-release of %s", name.length())
                                .isTrue();
                        messages.add(catchThrowable(held::release).getMessage());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                } catch (RuntimeException e) {
                    messages.add(e.getMessage()); // a lost lease at close: its message is checked too
                }
            }
        });
        List<String> texts = new ArrayList<>(messages);
        texts.add(logged);
        for (String text : texts) {
            assertThat(text).as("a message about a name").isNotNull();
            for (String line : text.split("\r\n|[\n\r\u2028\u2029\u0085\u000B\u000C]")) {
                assertThat(line).as("a line of %s", text).doesNotStartWith("[ERROR] forged");
            }
        }
        for (String message : messages) {
            assertThat(message.length()).as("length of a message about a name of %s characters: %s",
                    longName.length(), message).isLessThan(600);
        }
    }

    @Test
    @DisplayName("§12.4 a lease time or an extension past LockOptions.MAX_LEASE_TIME is refused before the store is "
            + "asked")
    default void rule_12_4_tooLongLeaseTimesRefusedBeforeTheStore() throws InterruptedException {
        LockStore store = tck().client();
        LockStore other = tck().client();
        String name = tck().name("too long");
        Duration tooLong = Duration.ofDays(365_000); // 1,000 years: its nanoseconds do not fit in a long
        Throwable refused = catchThrowable(() -> store.lock(name, LockOptions.defaults().withLeaseTime(tooLong))
                .tryAcquire());
        assertThat(refused).as("acquiring with a 1,000-year lease").isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leaseTime").hasMessageContaining("at most");
        Optional<Lease> free = other.lock(name).tryAcquire();
        assertThat(free).as("the name after the refused acquire: nobody holds it").isPresent();
        free.get().release();

        Lease held = store.lock(name).acquire();
        assertThatThrownBy(() -> held.extend(tooLong)).as("extending by 1,000 years")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaseTime");
        assertThat(held.isValid()).isTrue();
        if (tck().features().leaseModel() == LeaseModel.TIME) {
            assertThat(other.admin().list(name, 1)).singleElement().extracting(LockInfo::timeLeft)
                    .as("the store's term after the refused extension").satisfies(left ->
                            assertThat(left).isLessThanOrEqualTo(LockOptions.DEFAULT_LEASE_TIME));
        }
        held.release();
        assertThat(other.lock(name).tryAcquire()).as("the name after release").isPresent().get()
                .satisfies(Lease::release);
        Lease longest = store.lock(name, LockOptions.defaults().withLeaseTime(LockOptions.MAX_LEASE_TIME)).acquire();
        assertThat(longest.isValid()).as("a lease of LockOptions.MAX_LEASE_TIME").isTrue();
        assertThat(other.lock(name).tryAcquire()).as("the name while the 100-year lease is held").isEmpty();
        longest.release();
        assertThat(other.lock(name).tryAcquire()).as("the name after the 100-year lease's release").isPresent().get()
                .satisfies(Lease::release);
    }

    @Test
    @DisplayName("§12.3 many distinct names (10,000) can be held at once by one client")
    default void rule_12_3_manyNamesHeldAtOnce() throws Exception {
        LockStore store = tck().client();
        LockStore other = tck().client();
        int count = manyNamesCount();
        int threads = 4;
        List<Lease> leases = java.util.Collections.synchronizedList(new ArrayList<>(count));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                futures.add(pool.submit(() -> {
                    for (int i = first; i < count; i += threads) {
                        leases.add(store.lock(tck().name("many-" + i)).tryAcquire()
                                .orElseThrow(() -> new AssertionError("a fresh name was not free")));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(10, TimeUnit.MINUTES);
            }
            assertThat(leases).hasSize(count);
            assertThat(other.lock(tck().name("many-0")).tryAcquire()).isEmpty();
            assertThat(other.lock(tck().name("many-" + (count - 1))).tryAcquire()).isEmpty();
            assertThat(leases).allMatch(Lease::isValid);
            List<Future<?>> releases = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                releases.add(pool.submit(() -> {
                    for (int i = first; i < leases.size(); i += threads) {
                        leases.get(i).release();
                    }
                }));
            }
            for (Future<?> f : releases) {
                f.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        other.lock(tck().name("many-0")).tryAcquire().orElseThrow().release();
    }
}
