package io.distlock.jdbc;

import io.distlock.tck.RefusedSetting;
import io.distlock.tck.fixture.FreePorts;
import java.util.List;

/** The whole kit against the machine's MariaDB through MySQL Connector/J, on a table of its own. */
class MariaDbTckTest extends SqlStoreUriTck {

    private static final String URI =
            Databases.withOptions(Databases.mysql(), "distlock.table=" + Databases.uniqueTable("tck_my"));

    MariaDbTckTest() {
        super(URI, table -> Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
    }

    @Override
    protected String unreachableStoreUri() {
        return "jdbc:mysql://127.0.0.1:" + FreePorts.next() + "/test?user=root";
    }

    /**
     * The password in the user info, as {@code password=} and in Connector/J's key store password parameters. The
     * server refuses the wrong password, and the pool retries that for its connect wait (3 s by default) before it
     * reports it, for every URI and delimiter: a 1 s wait took the rule from 120 s to 13 s (what the store shows is
     * the same).
     */
    @Override
    public List<String> urisWithSecret(String secret) {
        String quick = "&distlock.connectTimeoutMillis=1000";
        String userInfo = "//root:" + java.util.regex.Matcher.quoteReplacement(secret) + "@";
        return List.of(URI.replaceFirst("//", userInfo) + quick,
                URI + "&password=" + secret + quick, URI + "&trustCertificateKeyStorePassword=" + secret + quick,
                URI + "&clientCertificateKeyStorePassword=" + secret + quick);
    }

    /** {@code useAffectedRows=false} in every spelling and position the driver takes (§22). */
    @Override
    public List<RefusedSetting> refusedSettings() {
        return AffectedRowsSpellings.connectorJ(URI);
    }
}
