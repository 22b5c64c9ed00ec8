package io.distlock.jdbc;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB server of a test's own, in a temporary directory on a free port (never the shared one), so the test
 * can stop and restart it. The data directory survives restarts; root has no password and grant checks are off.
 * Needs {@code mariadb-install-db} and {@code mariadbd} on the PATH (or in /usr/sbin).
 */
final class MariaDbServer implements AutoCloseable {

    private final Path directory = TempDirs.create("mariadb");
    private final int port = FreePorts.next();
    private final ServerProcess process;

    private MariaDbServer(Path mariadbd) {
        this.process = new ServerProcess("mariadbd", List.of(mariadbd.toString(), "--no-defaults",
                "--datadir=" + directory.resolve("data"), "--port=" + port, "--bind-address=127.0.0.1",
                "--socket=" + directory.resolve("mariadb.sock"), "--pid-file=" + directory.resolve("mariadb.pid"),
                "--user=root", "--skip-grant-tables", "--skip-log-bin", "--innodb-buffer-pool-size=16M"),
                directory, port);
    }

    /** Whether this machine has the MariaDB server binaries. */
    static boolean available() {
        return ServerProcess.findBinary("mariadbd", "/usr/sbin/mariadbd").isPresent()
                && ServerProcess.findBinary("mariadb-install-db", "/usr/bin/mariadb-install-db").isPresent();
    }

    /** Initialises a data directory, starts the server and creates the database {@code test}. */
    static MariaDbServer start() throws IOException, InterruptedException, SQLException {
        Path mariadbd = ServerProcess.findBinary("mariadbd", "/usr/sbin/mariadbd").orElseThrow();
        Path installDb = ServerProcess.findBinary("mariadb-install-db", "/usr/bin/mariadb-install-db").orElseThrow();
        MariaDbServer server = new MariaDbServer(mariadbd);
        Process install = new ProcessBuilder(installDb.toString(), "--no-defaults",
                "--datadir=" + server.directory.resolve("data"), "--auth-root-authentication-method=normal",
                "--user=root", "--skip-test-db")
                .redirectErrorStream(true)
                .redirectOutput(server.directory.resolve("install.log").toFile())
                .start();
        if (!install.waitFor(120, TimeUnit.SECONDS) || install.exitValue() != 0) {
            install.destroyForcibly();
            throw new IllegalStateException("mariadb-install-db failed; see " + server.directory.resolve("install.log"));
        }
        server.startProcess();
        try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.port + "/?user=root");
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS test");
        }
        return server;
    }

    /** Starts (or restarts) the server on the same port and data directory. */
    void startProcess() {
        process.start(Duration.ofSeconds(60));
    }

    /** Stops the server gracefully; committed rows survive. */
    void stop() {
        process.stop();
    }

    /** The Connector/J URL of database {@code test}. */
    String url() {
        return "jdbc:mysql://127.0.0.1:" + port + "/test?user=root";
    }

    @Override
    public void close() {
        try {
            process.stop();
        } finally {
            TempDirs.delete(directory);
        }
    }
}
