package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import io.distlock.tck.process.JvmClassPath;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * H2 in server mode, as several JVMs share it: an H2 TCP server in a JVM of the run's own ({@code org.h2.tools.Server}
 * on a free port) serving a file database in a temporary directory, so the server is killed with SIGKILL and started
 * again from its files, paused with SIGSTOP, and has its lock rows deleted by "an operator". With
 * {@code writeDelayMillis} null the database keeps H2's default write delay (commits reach the file in the
 * background, up to that delay later); otherwise {@code ;WRITE_DELAY=} is set on every connection.
 */
final class H2Target extends OwnServerTarget<ServerProcess> implements SqlTarget {

    static final Duration LEASE = Duration.ofSeconds(2);

    private static final String DATABASE = "chaos";

    private final Integer writeDelayMillis;
    private final Path dir;

    H2Target(Integer writeDelayMillis) {
        this(writeDelayMillis, TempDirs.create("chaos-h2"));
    }

    private H2Target(Integer writeDelayMillis, Path dir) {
        super(name(writeDelayMillis), start(writeDelayMillis, dir), LEASE);
        this.writeDelayMillis = writeDelayMillis;
        this.dir = dir;
    }

    private static ServerProcess start(Integer writeDelayMillis, Path dir) {
        int port = FreePorts.next();
        String java = JvmClassPath.javaBinary();
        ServerProcess server = new ServerProcess("h2", List.of(java, "-XX:TieredStopAtLevel=1", "-Xmx256m", "-cp",
                JvmClassPath.current(), "org.h2.tools.Server", "-tcp", "-tcpPort", Integer.toString(port), "-baseDir",
                dir.resolve("db").toString(), "-ifNotExists"), dir, port);
        try {
            server.start(Duration.ofSeconds(60));
            // the first connection creates the database files; on a loaded machine that outlasts a worker's timeout
            DriverManager.getConnection(url(writeDelayMillis, port)).close();
            return server;
        } catch (RuntimeException | SQLException e) {
            server.kill();
            TempDirs.delete(dir);
            throw new IllegalStateException("could not start an H2 TCP server", e);
        }
    }

    /** The report's name of the store with this write delay. */
    static String name(Integer writeDelayMillis) {
        return writeDelayMillis == null ? "h2 (server JVM, file database)"
                : "h2 (server JVM, file database, WRITE_DELAY=" + writeDelayMillis + ")";
    }

    private static String url(Integer writeDelayMillis, int port) {
        return "jdbc:h2:tcp://127.0.0.1:" + port + "/" + DATABASE
                + (writeDelayMillis == null ? "" : ";WRITE_DELAY=" + writeDelayMillis);
    }

    /** Workers give up on a silent server after 1.5 s, as on the other SQL stores (H2's client socket timeout). */
    @Override
    public String uri(int clientPort) {
        return url(writeDelayMillis, clientPort) + ";NETWORK_TIMEOUT=1500?" + CLIENT_TIMEOUTS;
    }

    /** The operator waits as long as the server takes (its first connection creates the database files). */
    @Override
    public String operatorJdbcUrl() {
        return url(writeDelayMillis, server.port());
    }

    @Override
    public String nowExpression() {
        return "CURRENT_TIMESTAMP";
    }

    @Override
    public void close() {
        server.kill();
        TempDirs.delete(dir);
    }
}
