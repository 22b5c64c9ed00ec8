package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB server of the run's own: a fresh data directory made by {@code mariadb-install-db}, {@code mariadbd} on a
 * free port, root without password over TCP. InnoDB keeps committed rows across a crash, so a restart keeps the
 * lock table, as a production database would.
 */
final class MariaDbTarget extends ProcessTarget {

    static final Duration LEASE = Duration.ofSeconds(2);

    private final int port = FreePorts.next();

    MariaDbTarget() {
        super("mariadb");
        run(List.of("mariadb-install-db", "--no-defaults", "--datadir=" + dir.resolve("data"),
                "--auth-root-authentication-method=normal", "--skip-test-db", "--user=root"));
        start();
        run(List.of("mariadb", "-h127.0.0.1", "-P" + port, "-uroot", "-e", "CREATE DATABASE IF NOT EXISTS test"));
    }

    @Override
    protected ServerProcess startServer() {
        return new ServerProcess("mariadb", List.of("mariadbd", "--no-defaults", "--datadir=" + dir.resolve("data"),
                "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + dir.resolve("mysqld.sock"),
                "--user=root", "--skip-log-bin", "--innodb-buffer-pool-size=32M",
                "--pid-file=" + dir.resolve("mysqld.pid")), dir, port).start(Duration.ofSeconds(60));
    }

    private static void run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + command.get(0) + " (is MariaDB installed?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String store() {
        return "mariadb";
    }

    @Override
    public String uri(int clientPort) {
        return "jdbc:mysql://127.0.0.1:" + clientPort + "/test?user=root&distlock.connectTimeoutMillis=1500"
                + "&distlock.socketTimeoutMillis=1500";
    }

    @Override
    public Duration holdBound() {
        return LEASE;
    }
}
