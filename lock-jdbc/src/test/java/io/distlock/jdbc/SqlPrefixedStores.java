package io.distlock.jdbc;

import io.distlock.LockStore;
import io.distlock.tck.PrefixedStores;
import java.util.List;
import java.util.function.Function;

/**
 * Clients of an SQL store under lock tables the kit names (§21): the table name is the SQL store's namespace, and the
 * store appends {@code _permits} to it for its semaphores. SQL table names take no {@code ':'}, so the kit's
 * {@code ':'} is written {@code '_'} here, the separator SQL names use (the kit's {@code "x:"} becomes {@code "x_"}).
 */
final class SqlPrefixedStores implements PrefixedStores {

    private final String base = Databases.uniqueTable("t21") + "_";
    private final Function<String, String> uriOfTable;

    /** Stores whose URI for a lock table {@code t} is {@code uriOfTable.apply(t)}. */
    SqlPrefixedStores(Function<String, String> uriOfTable) {
        this.uriOfTable = uriOfTable;
    }

    @Override
    public String base() {
        return base;
    }

    @Override
    public List<String> appendedSuffixes() {
        return List.of(JdbcPermits.TABLE_SUFFIX);
    }

    @Override
    public LockStore open(String namespace) {
        return LockStore.open(uriOfTable.apply(namespace.replace(':', '_')));
    }
}
