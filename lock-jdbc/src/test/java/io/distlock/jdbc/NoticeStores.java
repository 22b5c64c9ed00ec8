package io.distlock.jdbc;

import io.distlock.spi.ReleaseSignals;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@link PostgresNotices} on the machine's PostgreSQL, each with the signals it is given, as the stores of separate
 * processes on one table are; closes every one it opened. Announcements count for a minute, past any test.
 */
final class NoticeStores implements AutoCloseable {

    private static final long WANTED_FOR_MILLIS = 60_000;

    private final String table;
    private final List<PostgresNotices> opened = new ArrayList<>();

    /** Stores of a table of their own, named after {@code what}. */
    NoticeStores(String what) {
        table = Databases.uniqueTable(what);
    }

    /** The table whose channel the stores share. */
    String table() {
        return table;
    }

    /** A data source of the machine's PostgreSQL. */
    static PGSimpleDataSource source() {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setURL(Databases.postgres());
        return source;
    }

    /** A store waking {@code signals} (its locks' waiters), sending through {@code pool}. */
    PostgresNotices open(ReleaseSignals signals, DataSource pool, String label) {
        return open(new SharedSignals.Table(signals, new ReleaseSignals()), pool, label);
    }

    /** A store waking {@code signals} (its locks' and its semaphores' waiters), sending through {@code pool}. */
    PostgresNotices open(SharedSignals.Table signals, DataSource pool, String label) {
        PostgresNotices notices = new PostgresNotices(source(), pool, table, signals, WANTED_FOR_MILLIS, 10_000,
                label);
        opened.add(notices);
        return notices;
    }

    /** A store waking {@code signals}, locks' and semaphores'. */
    PostgresNotices open(SharedSignals.Table signals, String label) {
        return open(signals, source(), label);
    }

    /** A store waking {@code signals}. */
    PostgresNotices open(ReleaseSignals signals, String label) {
        return open(signals, source(), label);
    }

    @Override
    public void close() {
        opened.forEach(PostgresNotices::close);
    }

    /**
     * {@code pool} whose first {@code getConnection} counts {@code entered} down, then waits for {@code go}: the
     * notices queued meanwhile leave together in the sender's next batch.
     */
    static DataSource gated(DataSource pool, CountDownLatch entered, CountDownLatch go) {
        return (DataSource) Proxy.newProxyInstance(NoticeStores.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection") && entered.getCount() > 0) {
                        entered.countDown();
                        if (!go.await(30, TimeUnit.SECONDS)) {
                            throw new IllegalStateException("the gate never opened");
                        }
                    }
                    try {
                        return method.invoke(pool, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
