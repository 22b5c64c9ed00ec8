package io.distlock.jdbc;

import io.distlock.tck.FenceStateTampering;
import io.distlock.tck.NameLeftovers;
import io.distlock.tck.PrefixedStores;
import io.distlock.tck.RecordLocking;
import io.distlock.tck.SpoiledNameState;
import io.distlock.tck.StoreUriTck;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole kit against a SQL database, on a lock table of the test's own: the operator's views
 * of the rows (§21, §24, §26 and the tampering rules) are the same SQL on every such database, so they live here;
 * a subclass names its database, its unreachable URI and where its driver takes a password.
 */
@ExtendWith(Databases.class)
abstract class SqlStoreUriTck extends StoreUriTck {

    private final String uri;
    private final UnaryOperator<String> uriOfTable;

    /**
     * @param uri the store's URI, on its own lock table
     * @param uriOfTable the URI of the same database with another lock table, for §21's stores side by side
     */
    SqlStoreUriTck(String uri, UnaryOperator<String> uriOfTable) {
        super(uri);
        this.uri = uri;
        this.uriOfTable = uriOfTable;
    }

    /** The store's lock and permit rows of names used once, counted as an operator would, for §26. */
    @Override
    protected NameLeftovers nameLeftovers() {
        return new SqlNameLeftovers(uri);
    }

    /** The store's lock and permit rows, deleted and updated as an operator would. */
    @Override
    protected FenceStateTampering fenceTampering() {
        return new SqlFenceTampering(uri);
    }

    /** The store's held lock and permit rows, given an owner token no grant writes, as an operator would. */
    @Override
    protected SpoiledNameState spoiledNameState() {
        return new SqlSpoiledNames(uri);
    }

    /** Stores under lock tables of this run's own, for §21. */
    @Override
    protected PrefixedStores prefixedStores() {
        return new SqlPrefixedStores(uriOfTable);
    }

    /** An operator's {@code SELECT ... FOR UPDATE} of a lock's row, for §24. */
    @Override
    public RecordLocking recordLocking() {
        return new SqlRecordLocking(uri);
    }
}
