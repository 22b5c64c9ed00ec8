package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.FenceStateTampering;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * An in-process standalone server whose data directory a test can copy (a backup) and later put back in place of
 * the newer data (a restore, or a server that lost its last transactions), restarting it on the same port: the kit's
 * §19.6 hand and {@link RestoredDataTest}'s server.
 */
final class RestorableServer implements FenceStateTampering.RestorableStore {

    private final Path directory;
    private final boolean ownsDirectory;
    private final Path data;
    private final Path backup;
    private final TestingServer server;

    private RestorableServer(Path directory, boolean ownsDirectory, TestingServer server) {
        this.directory = directory;
        this.ownsDirectory = ownsDirectory;
        this.data = directory.resolve("data");
        this.backup = directory.resolve("backup");
        this.server = server;
    }

    /** A started server keeping its data in {@code directory} (which the caller deletes). */
    static RestorableServer start(Path directory) throws Exception {
        return start(directory, false);
    }

    /** A started server keeping its data in a temporary directory that {@link #close()} deletes. */
    static RestorableServer start() throws Exception {
        return start(Files.createTempDirectory("distlock-zk-restorable"), true);
    }

    private static RestorableServer start(Path directory, boolean ownsDirectory) throws Exception {
        Path data = directory.resolve("data");
        Files.createDirectories(data);
        InstanceSpec spec = new InstanceSpec(data.toFile(), TestServers.uniquePort(), TestServers.uniquePort(),
                TestServers.uniquePort(), false, -1, TestServers.TICK_MS, 0);
        return new RestorableServer(directory, ownsDirectory, new TestingServer(spec, true));
    }

    String connectString() {
        return server.getConnectString();
    }

    /** A new store on this server, with a 4 s session (sessions the older copy still shows expire soon after it). */
    @Override
    public LockStore client() {
        return BackendStores.open(TestServers.uri(connectString(), "restored", Duration.ofSeconds(4),
                Duration.ofSeconds(4)));
    }

    /** Copies the data directory as it is now (snapshots and transaction logs written so far). */
    @Override
    public void backUp() {
        deleteTree(backup);
        TempDirs.copy(data, backup);
    }

    /** Stops the server, replaces its data with the copy {@link #backUp()} made, and starts it again. */
    @Override
    public void restoreOlderCopy() throws Exception {
        server.stop();
        deleteTree(data);
        TempDirs.copy(backup, data);
        server.restart();
    }

    @Override
    public void close() throws IOException {
        server.close();
        if (ownsDirectory) {
            deleteTree(directory);
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + root, e);
        }
    }
}
