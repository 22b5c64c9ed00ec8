package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.StoreUri;
import io.distlock.tck.RefusedSetting;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The spellings the kit's §22 gets for MySQL-family stores ({@link AffectedRowsSpellings}) are ones the drivers take:
 * on a raw connection of each URL (distlock's options removed, nothing added), an UPDATE that changes nothing reads
 * 1 (matched rows), where the store needs 0.
 */
class AffectedRowsSpellingsTest {

    @Test
    void connectorJTakesEverySpellingListed() throws Exception {
        assertThat(matchedRowCounts("com.mysql.cj.jdbc.Driver", AffectedRowsSpellings.connectorJ(Databases.mysql())))
                .as("rows an unchanged UPDATE reads, per spelling").allSatisfy((spelling, rows) -> assertThat(rows)
                        .as(spelling).isEqualTo(1));
    }

    @Test
    void theMariaDbClientTakesEverySpellingListed() throws Exception {
        assertThat(matchedRowCounts("org.mariadb.jdbc.Driver",
                AffectedRowsSpellings.mariadbClient(Databases.mariadb())))
                .as("rows an unchanged UPDATE reads, per spelling").allSatisfy((spelling, rows) -> assertThat(rows)
                        .as(spelling).isEqualTo(1));
    }

    private static Map<String, Integer> matchedRowCounts(String driverClass, List<RefusedSetting> spellings)
            throws Exception {
        Driver driver = (Driver) Class.forName(driverClass).getDeclaredConstructor().newInstance();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (RefusedSetting s : spellings) {
            String url = JdbcSettings.parse(StoreUri.parse(s.uri())).driverUrl();
            try (Connection c = driver.connect(url, new Properties()); Statement st = c.createStatement()) {
                st.execute("CREATE TEMPORARY TABLE distlock_spelling (x INT)");
                st.execute("INSERT INTO distlock_spelling VALUES (1)");
                counts.put(s.toString(), st.executeUpdate("UPDATE distlock_spelling SET x = 1"));
            }
        }
        return counts;
    }
}
