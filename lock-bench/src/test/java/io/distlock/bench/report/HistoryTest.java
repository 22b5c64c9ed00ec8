package io.distlock.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.bench.core.Role;
import io.distlock.bench.core.Sample;
import io.distlock.bench.result.ScenarioResult;
import io.distlock.bench.result.StoreResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history file: this run's key ratios per store are appended and read back; a malformed line is refused. */
class HistoryTest {

    @TempDir
    Path dir;

    @Test
    void aRunsKeyRatiosAreAppendedAndReadBack() throws IOException {
        StoreResult mariadb = new StoreResult("mariadb", "test");
        mariadb.load(1.0, 2.5);
        mariadb.scenarios().add(result(Role.DISTLOCK, "uncontended-1", 900));
        mariadb.scenarios().add(result(Role.RAW, "uncontended-1", 1000));
        mariadb.scenarios().add(result(Role.DISTLOCK, "contended-8x2", 1500));
        mariadb.scenarios().add(result(Role.SPRING_INTEGRATION, "contended-8x2", 1000));
        StoreResult mem = new StoreResult("mem", "in-memory");

        List<History.Row> rows = History.rowsOf(Instant.parse("2026-12-01T12:00:00Z"), "abc1234",
                List.of(mariadb, mem), "uncontended-8", "contended-8x2");
        History.append(dir, rows);
        History.append(dir, rows);

        assertThat(rows).as("the mem store has no key ratios").hasSize(1);
        assertThat(History.read(dir).rows()).hasSize(2).first().isEqualTo(new History.Row("2026-12-01", "abc1234",
                "1.0-2.5", "mariadb", "uncontended-1 0.90x raw, contended-8x2 1.50x Spring"));
    }

    @Test
    void aLineWithoutFiveFieldsIsRefusedWithTheLine() throws IOException {
        Files.writeString(dir.resolve(History.FILE), "# header\n2026-12-01\tabc\tmariadb\n");

        assertThatThrownBy(() -> History.read(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining("expected 5 tab-separated fields, got 3").hasMessageContaining("2026-12-01");
    }

    private static ScenarioResult result(Role role, String scenario, double opsPerSecond) {
        ScenarioResult r = new ScenarioResult(role.name(), role, scenario, true);
        r.add(opsPerSecond, (long) opsPerSecond, Sample.newHistogram(), 0);
        return r;
    }
}
