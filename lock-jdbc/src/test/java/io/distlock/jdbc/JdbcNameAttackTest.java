package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Attack (review r9): names that differ only where a database may not look (trailing spaces, case, NFC against NFD,
 * a surrogate pair against another, NUL) and the longest names in characters of one to four UTF-8 bytes. Each is
 * its own lock and its own semaphore on every database, or is refused with an {@link IllegalArgumentException}
 * (a NUL on PostgreSQL, whose text cannot hold one: every acquire failed with a store error before, DEFECTS S41);
 * none fails with a store error or takes another name's lock.
 */
@ExtendWith(Databases.class)
class JdbcNameAttackTest {

    static List<String> names() {
        int max = JdbcBackend.MAX_NAME_LENGTH;
        return List.of("a", "a ", "a  ", "A", "\u00E9", "e\u0301", "\uD83D\uDE00", "\uD83D\uDE01", "x\u0000y", "x",
                "%", "_", "a_", "'; --", "a".repeat(max), "\u00FC".repeat(max), "\u20AC".repeat(max),
                "\uD83D\uDE00".repeat(max / 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void namesThatDifferOnlyWhereADatabaseMayNotLookAreDistinctLocksAndSemaphores(String label, String uri)
            throws Exception {
        try (LockStore a = BackendStores.open(uri); LockStore b = BackendStores.open(uri)) {
            List<Lease> held = new ArrayList<>();
            List<String> accepted = new ArrayList<>();
            for (String name : names()) {
                Lease lease;
                try {
                    lease = a.lock(name).tryAcquire().orElse(null);
                } catch (IllegalArgumentException refused) {
                    // PostgreSQL text holds no NUL (DEFECTS S41): refused as a bad name, never a store error
                    assertThat(name).as("a name refused on %s: %s", label, refused.getMessage()).contains("\0");
                    assertThat(refused).hasMessageContaining("NUL");
                    assertThatThrownBy(() -> a.semaphore(name, 1).tryAcquire())
                            .isInstanceOf(IllegalArgumentException.class);
                    continue;
                }
                assertThat(lease).as("lock %s on %s (another name's lock?)", show(name), label).isNotNull();
                held.add(lease);
                held.add(a.semaphore(name, 1).tryAcquire().orElseThrow(
                        () -> new AssertionError("semaphore " + show(name) + " on " + label)));
                accepted.add(name);
            }
            for (String name : accepted) {
                assertThat(b.lock(name).tryAcquire()).as("another client's lock %s on %s", show(name), label)
                        .isEmpty();
                assertThat(b.semaphore(name, 1).tryAcquire()).as("another client's permit %s", show(name)).isEmpty();
            }
            for (Lease lease : held) {
                lease.release();
            }
            for (String name : accepted) {
                b.lock(name).tryAcquire().orElseThrow(() -> new AssertionError(show(name) + " not freed")).release();
            }
            assertThat(accepted).as("names accepted on %s", label).hasSizeGreaterThanOrEqualTo(names().size() - 1);
        }
    }

    /**
     * The admin view's doors that take a name or a prefix ({@code forceRelease} both ways, {@code list},
     * {@code listPermits}) with a NUL: refused with an {@link IllegalArgumentException} naming the NUL where the
     * database cannot store one (PostgreSQL), as the lock itself is, else answered; never a store error (r10 review).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void adminDoorsTakeOrRefuseANulAsTheLockDoes(String label, String uri) {
        String name = "a\u0000b";
        try (LockStore store = BackendStores.open(uri)) {
            boolean refused;
            try {
                store.lock(name).tryAcquire().ifPresent(Lease::release);
                refused = false;
            } catch (IllegalArgumentException e) {
                refused = true;
            }
            List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> doors = List.of(
                    () -> store.admin().forceRelease(name),
                    () -> store.admin().forceRelease(name, 1),
                    () -> store.admin().list(name, 10),
                    () -> store.admin().listPermits(name, 10));
            for (int door = 0; door < doors.size(); door++) {
                Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(doors.get(door));
                if (refused) {
                    assertThat(thrown).as("admin door %d on %s", door, label)
                            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NUL");
                } else {
                    assertThat(thrown).as("admin door %d on %s", door, label).isNull();
                }
            }
        }
    }

    private static String show(String name) {
        String head = name.length() > 12 ? name.substring(0, 12) : name;
        StringBuilder b = new StringBuilder("'");
        head.chars().forEach(c -> b.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c)
                : String.format("\\u%04X", c)));
        return b.append(name.length() > 12 ? "...'(" + name.length() + ")" : "'").toString();
    }
}
