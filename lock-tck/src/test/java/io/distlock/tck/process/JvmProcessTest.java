package io.distlock.tck.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.tck.fixture.Signals;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The process harness: lines both ways, the store URI kept off the command line, pause, resume and kill. */
class JvmProcessTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aStoreUriNeverShowsOnTheClientsCommandLine() {
        String secret = "s3cret-" + System.nanoTime();
        try (LockClientProcess client = LockClientProcess.start("mem:app:" + secret, "secretive")) {
            ProcessHandle.Info info = ProcessHandle.of(client.pid()).orElseThrow().info();
            Optional<String[]> arguments = info.arguments();
            assertThat(arguments).as("the child's arguments are readable on this OS").isPresent();
            assertThat(List.of(arguments.get())).contains("secretive").noneMatch(a -> a.contains(secret));
            assertThat(info.commandLine()).hasValueSatisfying(c -> assertThat(c).doesNotContain(secret));
            // the client got the URI all the same: it opened the store and acquires in it
            assertThat(client.acquire("secret-lock", Duration.ofSeconds(30), true, TIMEOUT)).isPositive();
        }
    }

    @Test
    void aLongClassPathStaysOffTheCommandLineSoItsArgumentsStayReadable() {
        // Linux's ProcessHandle.Info gives no arguments for a command line over one page (4 KiB): a class path
        // that long on the command line would hide the arguments the test above checks
        StringBuilder classPath = new StringBuilder(JvmClassPath.current());
        while (classPath.length() < 20_000) {
            classPath.append(java.io.File.pathSeparator).append("/nonexistent/padding-").append(classPath.length())
                    .append(".jar");
        }
        try (JvmProcess child = JvmProcess.builder("echo", EchoMain.class).classPath(classPath.toString())
                .args("long-class-path").storeUri("mem:x").start()) {
            assertThat(child.nextLine(TIMEOUT)).contains("URI 5");
            Optional<String[]> arguments = ProcessHandle.of(child.pid()).orElseThrow().info().arguments();
            assertThat(arguments).as("the child's arguments are readable").isPresent();
            assertThat(List.of(arguments.get())).contains(EchoMain.class.getName(), "long-class-path");
        }
    }

    @Test
    void linesGoBothWaysAndAPausedChildAnswersOnlyOnceResumed() {
        try (JvmProcess child = JvmProcess.builder("echo", EchoMain.class).storeUri("mem:x").start()) {
            assertThat(child.nextLine(TIMEOUT)).contains("URI 5");
            child.send("one");
            assertThat(child.nextLine(TIMEOUT)).contains("ECHO one");
            child.pause();
            await().atMost(TIMEOUT).until(() -> Signals.isStopped(child.pid()));
            child.send("two");
            child.resume();
            assertThat(child.nextLine(TIMEOUT)).contains("ECHO two");
            assertThat(child.transcript()).containsExactly("URI 5", "ECHO one", "ECHO two");
            child.kill();
            assertThat(child.isAlive()).isFalse();
            assertThat(child.nextLine(TIMEOUT)).isEmpty();
            assertThat(child.ended()).isTrue();
        }
    }

    @Test
    void stopClosesTheInputOfAPausedChildAndItExits() {
        JvmProcess child = JvmProcess.builder("echo", EchoMain.class).storeUri("mem:x").start();
        assertThat(child.nextLine(TIMEOUT)).contains("URI 5");
        child.pause();
        child.stop(null, TIMEOUT);
        assertThat(child.isAlive()).isFalse();
        assertThat(child.exitValue()).as("exited on its own, not killed").isZero();
    }
}
