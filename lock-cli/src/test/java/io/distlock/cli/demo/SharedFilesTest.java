package io.distlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's shared resources: a counter whose subtraction is one atomic step, and the SQL records of the fencing
 * story (on an in-memory H2).
 */
class SharedFilesTest {

    @TempDir
    Path dir;

    @Test
    void counterSubtractsWithoutChecking() {
        SharedCounter counter = new SharedCounter(dir.resolve("points"));
        counter.set(10);
        assertThat(counter.subtract(7)).isEqualTo(3);
        assertThat(counter.subtract(7)).isEqualTo(-4);
        assertThat(counter.get()).isEqualTo(-4);
    }

    @Test
    void theFencedSqlRecordRefusesLowerTokensButThePlainOneDoesNot() {
        SqlRecords records = new SqlRecords("jdbc:h2:mem:shared_files_test;DB_CLOSE_DELAY=-1", "demo_records");
        records.create();
        try {
            assertThat(records.writeFenced("demo:lock", 8, "B")).isEqualTo("accepted");
            assertThat(records.writeFenced("demo:lock", 7, "A")).isEqualTo("REFUSED (token 7 < 8, already recorded)");
            assertThat(records.value(SqlRecords.FENCED)).isEqualTo("B");
            assertThat(records.writeFenced("demo:lock", 8, "B again")).isEqualTo("accepted");
            assertThat(records.value(SqlRecords.FENCED)).isEqualTo("B again");

            records.writePlain("B");
            assertThat(records.writePlain("A")).isEqualTo("accepted");
            assertThat(records.value(SqlRecords.PLAIN)).isEqualTo("A");
        } finally {
            records.drop();
        }
    }
}
