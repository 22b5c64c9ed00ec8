package io.distlock.jdbc;

import io.distlock.tck.FenceStateTampering;
import io.distlock.tck.NameLeftovers;
import io.distlock.tck.PrefixedStores;
import io.distlock.tck.RecordLocking;
import io.distlock.tck.SpoiledNameState;
import io.distlock.tck.StoreUriTck;
import io.distlock.tck.fixture.FreePorts;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;

/** The whole kit against the machine's PostgreSQL, on a table of its own. */
@ExtendWith(Databases.class)
class PostgresTckTest extends StoreUriTck {

    private static final String URI =
            Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("tck_pg"));

    PostgresTckTest() {
        super(URI);
    }

    /** The store's lock and permit rows of names used once, counted as an operator would, for §26. */
    @Override
    protected NameLeftovers nameLeftovers() {
        return new SqlNameLeftovers(URI);
    }

    /** The store's lock and permit rows, deleted and updated as an operator would. */
    @Override
    protected FenceStateTampering fenceTampering() {
        return new SqlFenceTampering(URI);
    }

    /** The store's held lock and permit rows, given an owner token no grant writes, as an operator would. */
    @Override
    protected SpoiledNameState spoiledNameState() {
        return new SqlSpoiledNames(URI);
    }

    /** Stores under lock tables of this run's own, for §21. */
    @Override
    protected PrefixedStores prefixedStores() {
        return new SqlPrefixedStores(table -> Databases.withOptions(Databases.postgres(), "distlock.table=" + table));
    }

    @Override
    protected String unreachableStoreUri() {
        return "jdbc:postgresql://127.0.0.1:" + FreePorts.next() + "/test?user=postgres";
    }

    /** The password in the user info, as {@code password=} and as {@code sslpassword=}; PostgreSQL trusts any. */
    @Override
    public List<String> urisWithSecret(String secret) {
        return List.of(URI.replaceFirst("//", "//postgres:" + java.util.regex.Matcher.quoteReplacement(secret) + "@"),
                URI + "&password=" + secret, URI + "&sslpassword=" + secret);
    }

    /** An operator's {@code SELECT ... FOR UPDATE} of a lock's row, for §24. */
    @Override
    public RecordLocking recordLocking() {
        return new SqlRecordLocking(URI);
    }
}
