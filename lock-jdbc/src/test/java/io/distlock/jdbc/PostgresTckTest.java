package io.distlock.jdbc;

import io.distlock.tck.fixture.FreePorts;
import java.util.List;

/** The whole kit against the machine's PostgreSQL, on a table of its own. */
class PostgresTckTest extends SqlStoreUriTck {

    private static final String URI =
            Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("tck_pg"));

    PostgresTckTest() {
        super(URI, table -> Databases.withOptions(Databases.postgres(), "distlock.table=" + table));
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
}
