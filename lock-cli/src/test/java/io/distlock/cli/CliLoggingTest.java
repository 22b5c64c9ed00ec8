package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.process.JvmClassPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command's own logging, read on the stderr of a separate JVM that runs {@code distlock inspect} against an
 * in-process ZooKeeper ({@link CliLoggingProbe}): ZooKeeper's and Curator's INFO lines do not show, and a record of
 * distlock's logging (java.util.logging) takes one line, its cause included.
 */
class CliLoggingTest {

    @TempDir
    Path dir;

    @Test
    void aCommandOnZooKeeperPrintsNoZooKeeperInfoAndOneLinePerRecord() throws Exception {
        List<String> stderr;
        int code;
        try (TestingServer zookeeper = new TestingServer(true)) {
            Path err = dir.resolve("stderr.txt");
            Process process = new ProcessBuilder(JvmClassPath.javaBinary(), "-cp", JvmClassPath.current(),
                    CliLoggingProbe.class.getName(), "inspect", "--store",
                    "zookeeper://" + zookeeper.getConnectString() + "?sessionTimeout=4s")
                    .redirectError(err.toFile()).redirectOutput(dir.resolve("stdout.txt").toFile()).start();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the command ended within 60 s").isTrue();
            code = process.exitValue();
            stderr = read(err);
        }
        assertThat(code).as(String.join("\n", stderr)).isEqualTo(ExitCodes.OK);
        assertThat(stderr).as("stderr").noneMatch(line -> line.contains("INFO"))
                .noneMatch(line -> line.contains("org.apache.zookeeper") || line.contains("org.apache.curator"));
        assertThat(stderr).as("stderr: the probe's warning, on one line with its cause").singleElement()
                .satisfies(line -> assertThat(line).contains("WARNING", CliLoggingProbe.MESSAGE, "its cause"));
    }

    private static List<String> read(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }
}
