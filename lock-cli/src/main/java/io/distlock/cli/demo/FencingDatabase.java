package io.distlock.cli.demo;

import io.distlock.spi.StoreUri;
import io.distlock.tck.fixture.FreePorts;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.h2.tools.Server;

/**
 * Where the fencing scenario keeps its records: in the store's own database when the store is a shared SQL
 * database ({@code --store jdbc:...}, not an in-process H2), else in an in-memory H2 database served over TCP by
 * this process, so that the services (separate JVMs) reach it. The tables are named after the run and dropped at
 * the end.
 */
final class FencingDatabase implements AutoCloseable {

    private final String url;
    private final String shown;
    private final Server server;
    private final SqlRecords records;

    private FencingDatabase(String url, String shown, Server server, String table) {
        this.url = url;
        this.shown = shown;
        this.server = server;
        this.records = new SqlRecords(url, table);
    }

    /** Opens the database for a run and creates the run's tables. */
    static FencingDatabase open(DemoContext ctx) {
        String table = "distlock_demo_" + ctx.runId().replaceAll("\\W", "_");
        String store = ctx.storeUri();
        FencingDatabase db;
        if (store.startsWith("jdbc:") && !store.startsWith("jdbc:h2:mem:") && !store.startsWith("jdbc:h2:file:")) {
            db = new FencingDatabase(withoutDistlockOptions(store), "the store's database (" + ctx.shownUri() + ")",
                    null, table);
        } else {
            int port = FreePorts.next();
            try {
                Server server = Server.createTcpServer("-tcpPort", Integer.toString(port), "-ifNotExists").start();
                db = new FencingDatabase("jdbc:h2:tcp://127.0.0.1:" + port + "/mem:" + table + ";DB_CLOSE_DELAY=-1",
                        "an H2 database served by this process on 127.0.0.1:" + port, server, table);
            } catch (SQLException e) {
                throw new DemoFailure("could not start the demo's H2 server on port " + port, e);
            }
        }
        try {
            db.records.create();
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return db;
    }

    /** The JDBC URL the services write to (may hold a password: travels only over stdin). */
    String url() {
        return url;
    }

    /** Where the records are, for the output. */
    String shown() {
        return shown;
    }

    SqlRecords records() {
        return records;
    }

    /** Drops the run's tables (from a shared database) or stops the H2 server (and its in-memory database). */
    @Override
    public void close() {
        try {
            records.drop();
        } finally {
            if (server != null) {
                server.stop();
            }
        }
    }

    /** The store URI as its JDBC driver takes it: {@code distlock.*} query parameters removed. */
    static String withoutDistlockOptions(String uri) {
        int q = uri.indexOf('?');
        if (q < 0) {
            return uri;
        }
        List<String> kept = new ArrayList<>();
        for (String pair : uri.substring(q + 1).split("&")) {
            if (!pair.isEmpty() && !pair.startsWith("distlock.")) {
                kept.add(pair);
            }
        }
        return kept.isEmpty() ? uri.substring(0, q) : uri.substring(0, q + 1) + String.join("&", kept);
    }

    @Override
    public String toString() {
        return "FencingDatabase[" + StoreUri.redact(url) + "]";
    }
}
