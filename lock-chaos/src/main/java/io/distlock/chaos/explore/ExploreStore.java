package io.distlock.chaos.explore;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.MariaDbServer;
import io.distlock.tck.process.JvmClassPath;
import io.distlock.tck.fixture.PostgresServer;
import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import io.distlock.tck.fixture.ZooKeeperServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A store the explorer runs on: how to start a server of the run's own (a kit fixture behind {@link ServerControl}),
 * the URI a client uses through the explorer's proxy, the lease the scenarios ask for, and how long a late reply is
 * held (past the client's own timeout on that store).
 */
public enum ExploreStore {

    /** redis-server without persistence, clients with {@code restartGuard=true} (the safe setting). */
    REDIS("redis") {
        @Override
        ServerControl start() {
            return redis(List.of("--save", "", "--appendonly", "no"));
        }

        @Override
        String uri(int port) {
            return "redis://127.0.0.1:" + port + "?timeout=1s&restartGuard=true&maxLeaseTime="
                    + lease().toMillis() + "ms";
        }
    },

    /** redis-server with AOF fsync always (nothing acknowledged is lost), clients without the guard. */
    REDIS_AOF("redis-aof") {
        @Override
        ServerControl start() {
            return redis(List.of("--save", "", "--appendonly", "yes", "--appendfsync", "always",
                    "--auto-aof-rewrite-percentage", "0"));
        }

        @Override
        String uri(int port) {
            return "redis://127.0.0.1:" + port + "?timeout=1s";
        }
    },

    /** A PostgreSQL server of the run's own (the kit's PostgresServer), clients with a 1.5 s socket timeout. */
    POSTGRESQL("postgresql") {
        @Override
        ServerControl start() throws Exception {
            return PostgresServer.start();
        }

        @Override
        String uri(int port) {
            return "jdbc:postgresql://127.0.0.1:" + port + "/test?user=postgres&" + SQL_TIMEOUTS;
        }

        @Override
        String operatorJdbcUrl(int port) {
            return "jdbc:postgresql://127.0.0.1:" + port + "/test?user=postgres";
        }
    },

    /**
     * PostgreSQL with waiters that poll only once a minute (capped, as always, by the holder's expiry) and a lease of
     * 20 s: a release elsewhere must reach a waiter through LISTEN/NOTIFY, so a wake-up the store's notices lose (a
     * listener connection dropped silently, notices never sent) shows as a waiter that goes on waiting while the
     * name is free, checked against {@link #wakeUp()} of 5 s instead of the polling stores' 15 s.
     */
    POSTGRESQL_NOTICES("postgresql-notices", Duration.ofSeconds(20), Duration.ofMillis(2500), Duration.ofSeconds(3)) {
        @Override
        ServerControl start() throws Exception {
            return PostgresServer.start();
        }

        @Override
        String uri(int port) {
            return POSTGRESQL.uri(port) + "&distlock.pollMinMillis=60000&distlock.pollMaxMillis=60000";
        }

        @Override
        String operatorJdbcUrl(int port) {
            return POSTGRESQL.operatorJdbcUrl(port);
        }

        @Override
        Duration wakeUp() {
            return Duration.ofSeconds(5);
        }
    },

    /** A MariaDB server of the run's own (the kit's MariaDbServer), clients on the MariaDB driver. */
    MARIADB("mariadb") {
        @Override
        ServerControl start() throws Exception {
            return MariaDbServer.start();
        }

        @Override
        String uri(int port) {
            return "jdbc:mariadb://127.0.0.1:" + port + "/test?user=root&" + SQL_TIMEOUTS;
        }

        @Override
        String operatorJdbcUrl(int port) {
            return "jdbc:mysql://127.0.0.1:" + port + "/test?user=root";
        }
    },

    /** The same MariaDB server, clients on MySQL Connector/J. */
    MARIADB_CJ("mariadb-cj") {
        @Override
        ServerControl start() throws Exception {
            return MariaDbServer.start();
        }

        @Override
        String uri(int port) {
            return "jdbc:mysql://127.0.0.1:" + port + "/test?user=root&" + SQL_TIMEOUTS;
        }

        @Override
        String operatorJdbcUrl(int port) {
            return "jdbc:mysql://127.0.0.1:" + port + "/test?user=root";
        }
    },

    /**
     * The same MariaDB server, clients on MySQL Connector/J with the URI's defaults (no timeout of the explorer's: a
     * 3 s wait for a pooled connection, 10 s per read) and the default 30 s lease: a call must return within one
     * operation at those timeouts ({@link #callBound()}, 14 s), not only within the lease. A renewal statement's own
     * bound is a sixth of the lease here (5 s), so a bound the driver keeps by cancelling over a new connection,
     * which a paused server leaves unanswered for a whole read, shows as a call of 15 s.
     */
    MARIADB_CJ_DEFAULTS("mariadb-cj-defaults", Duration.ofSeconds(30), Duration.ofSeconds(11),
            Duration.ofSeconds(14)) {
        @Override
        ServerControl start() throws Exception {
            return MariaDbServer.start();
        }

        @Override
        String uri(int port) {
            return "jdbc:mysql://127.0.0.1:" + port + "/test?user=root";
        }

        @Override
        String operatorJdbcUrl(int port) {
            return MARIADB_CJ.operatorJdbcUrl(port);
        }

        @Override
        Duration callBound() {
            return Duration.ofSeconds(14); // 3 s for a pooled connection, 1 s for its check, a 10 s read
        }
    },

    /** H2 in server mode: an H2 TCP server in a JVM of its own serving a file database (restarts from its files). */
    H2("h2") {
        @Override
        ServerControl start() throws Exception {
            Path dir = TempDirs.create("explore-h2");
            int port = FreePorts.next();
            ServerProcess server = new ServerProcess("h2", List.of(JvmClassPath.javaBinary(),
                    "-XX:TieredStopAtLevel=1", "-Xmx256m", "-cp", JvmClassPath.current(), "org.h2.tools.Server",
                    "-tcp", "-tcpPort", Integer.toString(port), "-baseDir", dir.resolve("db").toString(),
                    "-ifNotExists"), dir, port);
            server.start(Duration.ofSeconds(60));
            DirOwningServer owned = new DirOwningServer(server, dir);
            try {
                java.sql.DriverManager.getConnection(operatorJdbcUrl(port)).close(); // creates the database files
            } catch (java.sql.SQLException e) {
                owned.close();
                throw e;
            }
            return owned;
        }

        @Override
        String uri(int port) {
            // no NETWORK_TIMEOUT of the URL's own: the store sets it from distlock.socketTimeoutMillis
            return "jdbc:h2:tcp://127.0.0.1:" + port + "/explore?" + SQL_TIMEOUTS;
        }

        @Override
        String operatorJdbcUrl(int port) {
            return "jdbc:h2:tcp://127.0.0.1:" + port + "/explore";
        }
    },

    /** A standalone ZooKeeper server in a JVM of its own (the kit's ZooKeeperServer), sessions of 4 s. */
    ZOOKEEPER("zookeeper", Duration.ofSeconds(4), Duration.ofMillis(3500), Duration.ofSeconds(5)) {
        @Override
        ServerControl start() {
            return ZooKeeperServer.start();
        }

        @Override
        String uri(int port) {
            return "zookeeper://127.0.0.1:" + port + "?sessionTimeout=" + lease().toMillis()
                    + "ms&connectionTimeout=2s";
        }

        @Override
        Optional<Path> dataDirectory(ServerControl server) {
            // the fixture's directory holds its log and its data directory
            return Optional.of(((ZooKeeperServer) server).logFile().getParent().resolve("data"));
        }
    };

    private static final String SQL_TIMEOUTS = "distlock.connectTimeoutMillis=1500&distlock.socketTimeoutMillis=1500";

    private final String label;
    private final Duration lease;
    private final Duration late;
    private final Duration prompt;

    /** A store of the common timing: a 6 s lease, late replies held 2.5 s, a token nobody holds gone within 3 s. */
    ExploreStore(String label) {
        this(label, Duration.ofSeconds(6), Duration.ofMillis(2500), Duration.ofSeconds(3));
    }

    ExploreStore(String label, Duration lease, Duration late, Duration prompt) {
        this.label = label;
        this.lease = lease;
        this.late = late;
        this.prompt = prompt;
    }

    /**
     * How long the store may keep a token nobody alive holds when nothing excuses it (the client gave up on an
     * acquisition, or released or closed with the store answering): one client timeout (on ZooKeeper the reconnect,
     * two thirds of the session) and a take-back, with margin for a loaded machine.
     */
    Duration prompt() {
        return prompt;
    }

    /**
     * How long one client call may take beyond what it asked to wait: one lease and 3 s where the URI sets short
     * timeouts of the explorer's (a call bounded by them returns well within it), one operation at the URI's
     * timeouts where it sets none.
     */
    Duration callBound() {
        return lease.plusSeconds(3);
    }

    /**
     * How long a waiter may go on waiting while the store has room for it (a missed wake-up): 15 s on stores whose
     * waiters also poll, less where the scenario relies on the store's wake-ups.
     */
    Duration wakeUp() {
        return ExploreChecker.WAKE_UP;
    }

    /** Starts the run's own server and waits until it serves. */
    abstract ServerControl start() throws Exception;

    /** The URI of a client that reaches the server on {@code port} (the proxy's). */
    abstract String uri(int port);

    /**
     * The server's data directory, which a restore copies and puts back while the server is down; empty where the
     * explorer does not restore (PostgreSQL: its files cannot be copied consistently while it runs). Redis keeps it
     * in the directory its server owns.
     */
    Optional<Path> dataDirectory(ServerControl server) {
        return redis() ? Optional.of(((DirOwningServer) server).directory().resolve("data")) : Optional.empty();
    }

    /** A plain JDBC URL straight to the server on {@code port}, for an operator's statements; null if not SQL. */
    String operatorJdbcUrl(int port) {
        return null;
    }

    /** Whether the store keeps its state in SQL tables. */
    boolean sql() {
        return operatorJdbcUrl(1) != null;
    }

    /** Whether the store is PostgreSQL (either flavour). */
    boolean postgres() {
        return this == POSTGRESQL || this == POSTGRESQL_NOTICES;
    }

    private boolean redis() {
        return this == REDIS || this == REDIS_AOF;
    }

    /** Whether the explorer can inject {@code fault} on this store. */
    public boolean supports(Fault fault) {
        return switch (fault) {
            case SERVER_RESTORE -> !sql();
            case SERVER_RESTORE_MID, SERVER_RESTORE_RELEASED -> this == REDIS_AOF || this == ZOOKEEPER;
            case ROW_LOCKED -> sql();
            case OPERATOR_DELETE, OPERATOR_EXHAUST, OPERATOR_GARBLE -> sql() || redis();
            case OPERATOR_RETYPE -> redis();
            default -> true;
        };
    }

    /** The store's name in run names and reports. */
    public String label() {
        return label;
    }

    /**
     * The lease the scenarios ask for (on ZooKeeper: the session timeout, which bounds a silent holder): longer than
     * {@link #prompt()}, so a name left held by nobody alive until its lease runs out shows.
     */
    public Duration lease() {
        return lease;
    }

    /** How long a late reply is held back: past the client's own timeout on this store. */
    Duration late() {
        return late;
    }

    /** The store named {@code label}. */
    public static ExploreStore of(String label) {
        return Arrays.stream(values()).filter(s -> s.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no store '" + label + "'; stores: "
                        + Arrays.stream(values()).map(ExploreStore::label).toList()));
    }

    private static ServerControl redis(List<String> options) {
        Path dir = TempDirs.create("explore-redis");
        Path data = dir.resolve("data");
        try {
            Files.createDirectories(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int port = FreePorts.next();
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--dir", data.toString()));
        command.addAll(options);
        ServerProcess server = new ServerProcess("redis", command, dir, port).start();
        return new DirOwningServer(server, dir);
    }
}
