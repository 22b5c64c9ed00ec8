package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code inspect} and {@code release --force} against real stores: the shared Redis on 127.0.0.1:6379, and the
 * in-memory reference store (a named {@code mem:} space is shared by every store of this JVM, command included).
 * A test client holds locks under a unique prefix; the command must see them and break them.
 */
class InspectReleaseTest {

    static Stream<String> stores() {
        return Stream.of("redis://127.0.0.1:6379", "mem:cli-inspect-test");
    }

    private String prefix;
    private LockStore holder;

    @BeforeEach
    void uniquePrefix() {
        prefix = "cli-test:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }

    @AfterEach
    void closeHolder() {
        if (holder != null) {
            holder.close();
        }
    }

    private Lease hold(String uri, String name) {
        holder = holder != null ? holder : LockStore.open(uri);
        return holder.lock(prefix + name).tryAcquire().orElseThrow();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void inspectShowsHeldLocksWithTokenTimeLeftAndOwner(String uri) {
        Lease a = hold(uri, "orders:1");
        Lease b = hold(uri, "orders:2");

        CliRun run = CliRun.of("inspect", "--store", uri, prefix);

        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("NAME", "TOKEN", "TIME LEFT", "OWNER")
                .contains(prefix + "orders:1", prefix + "orders:2")
                .contains(Long.toString(a.fencingToken()), Long.toString(b.fencingToken()))
                .contains("2 locks held");
        String row = run.out().lines().filter(l -> l.startsWith(prefix + "orders:1")).findFirst().orElseThrow();
        assertThat(row).containsPattern("\\d+\\.\\d+ s");
    }

    /**
     * Names are written by any client: one holding a line break or a terminal escape must not print a line of its
     * own or reach the operator's terminal raw (r10 safety review).
     */
    @ParameterizedTest
    @MethodSource("stores")
    void inspectPrintsNoRawControlCharacterOfAName(String uri) throws InterruptedException {
        hold(uri, "x\n[ERROR] forged\u001B[2J\r[ERROR] forged");
        holder.semaphore(prefix + "y\n[ERROR] forged", 1).acquire();

        CliRun run = CliRun.of("inspect", "--store", uri, prefix);

        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out().split("\r\n|[\n\r\u2028\u2029\u0085]"))
                .as(run.out()).noneMatch(line -> line.startsWith("[ERROR] forged"));
        assertThat(run.out()).as(run.out()).doesNotContain("\u001B").contains("1 lock held");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void inspectShowsHeldPermitsApartFromLocks(String uri) throws InterruptedException {
        holder = holder != null ? holder : LockStore.open(uri);
        Lease p1 = holder.semaphore(prefix + "api", 2).acquire();
        Lease p2 = holder.semaphore(prefix + "api", 2).acquire();

        CliRun run = CliRun.of("inspect", "--store", uri, prefix);

        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("No locks starting with '" + prefix + "'")
                .contains("SEMAPHORE", prefix + "api")
                .contains(Long.toString(p1.fencingToken()), Long.toString(p2.fencingToken()))
                .contains("2 permits held");
        p1.release();
        p2.release();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void inspectFiltersByPrefixAndSaysWhenNothingMatches(String uri) {
        hold(uri, "a:1");
        hold(uri, "b:1");

        CliRun onlyA = CliRun.of("inspect", "--store", uri, prefix + "a:");
        assertThat(onlyA.out()).contains(prefix + "a:1").doesNotContain(prefix + "b:1").contains("1 lock held");

        CliRun none = CliRun.of("inspect", "--store", uri, prefix + "zzz");
        assertThat(none.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(none.out()).contains("No locks starting with '" + prefix + "zzz'");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void inspectLimitCapsTheList(String uri) {
        hold(uri, "x:1");
        hold(uri, "x:2");
        hold(uri, "x:3");

        CliRun run = CliRun.of("inspect", "--store", uri, "--limit", "2", prefix);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("limit reached").contains(prefix + "x:1", prefix + "x:2")
                .doesNotContain(prefix + "x:3");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void forcedReleaseWithYesFreesTheLockAndTheHolderFindsOut(String uri) throws Exception {
        Lease lease = hold(uri, "stuck");

        CliRun run = CliRun.of("release", "--force", "--yes", "--store", uri, prefix + "stuck");

        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("Released '" + prefix + "stuck'")
                .contains("fencing token " + lease.fencingToken());
        try (LockStore other = LockStore.open(uri)) {
            Lease next = other.lock(prefix + "stuck").tryAcquire(Duration.ofSeconds(10)).orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            next.release();
        }
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void releaseAsksAndDoesNothingUnlessConfirmed(String uri) {
        Lease lease = hold(uri, "keep");

        CliRun declined = CliRun.withInput("n\n", "release", "--force", "--store", uri, prefix + "keep");
        assertThat(declined.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(declined.out()).contains("Release lock '" + prefix + "keep'").contains("[y/N]")
                .contains("Not confirmed");

        CliRun noInput = CliRun.withInput("", "release", "--force", "--store", uri, prefix + "keep");
        assertThat(noInput.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);

        assertThat(lease.isValid()).isTrue();
        assertThat(CliRun.of("inspect", "--store", uri, prefix).out()).contains(prefix + "keep");

        CliRun confirmed = CliRun.withInput("y\n", "release", "--force", "--store", uri, prefix + "keep");
        assertThat(confirmed.exitCode()).as(confirmed.all()).isEqualTo(ExitCodes.OK);
        assertThat(CliRun.of("inspect", "--store", uri, prefix).out()).contains("No locks starting with");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aLockThatChangedHandsWhileTheOperatorReadThePromptIsLeftToItsNewHolder(String uri) throws Exception {
        String name = prefix + "moving";
        Lease first = hold(uri, "moving");
        try (LockStore second = LockStore.open(uri); LockStore third = LockStore.open(uri)) {
            AtomicReference<Lease> taken = new AtomicReference<>();
            // the operator reads the prompt; meanwhile the first holder releases and another process takes the lock
            InputStream answer = new AnswerAfter("y\n", () -> {
                first.release();
                taken.set(second.lock(name).tryAcquire().orElseThrow());
            });

            CliRun run = CliRun.withInput(answer, "release", "--force", "--store", uri, name);

            assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.CHECK_FAILED);
            assertThat(run.out()).doesNotContain("Released '")
                    .contains("fencing token " + first.fencingToken())
                    .contains("changed hands").contains("fencing token " + taken.get().fencingToken());
            assertThat(third.lock(name).tryAcquire()).as("the new holder keeps the lock").isEmpty();
            taken.get().release();
        }
    }

    /** Standard input that runs {@code meanwhile} when the command first reads it, then answers {@code text}. */
    private static final class AnswerAfter extends InputStream {
        private final ByteArrayInputStream text;
        private Runnable meanwhile;

        AnswerAfter(String text, Runnable meanwhile) {
            this.text = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
            this.meanwhile = meanwhile;
        }

        @Override
        public int read() {
            runMeanwhileOnce();
            return text.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            runMeanwhileOnce();
            return text.read(b, off, len);
        }

        private void runMeanwhileOnce() {
            if (meanwhile != null) {
                Runnable once = meanwhile;
                meanwhile = null;
                once.run();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void releasingALockNoOneHoldsExitsOne(String uri) {
        hold(uri, "other");

        CliRun run = CliRun.of("release", "--force", "--yes", "--store", uri, prefix + "oth");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(run.out()).contains("No lock named '" + prefix + "oth' is held");
    }
}
