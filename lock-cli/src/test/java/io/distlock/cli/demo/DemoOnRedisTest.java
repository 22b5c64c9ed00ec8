package io.distlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.cli.DistlockMain;
import io.distlock.cli.ExitCodes;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The whole {@code distlock demo} (every scenario, separate JVMs) once on the shared Redis server, under a key
 * prefix of its own: its tables fit 120 columns and say what a token is, and it leaves none of its keys behind.
 */
class DemoOnRedisTest {

    /** The widest line a table of the demo may print. */
    static final int MAX_COLUMNS = 120;

    private static final String PREFIX = "distlock-demo-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";

    private static int code;
    private static String printed;

    @BeforeAll
    static void runTheDemoOnRedis() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        code = DistlockMain.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true),
                new PrintWriter(err, true), "demo", "--store", "redis://127.0.0.1:6379?keyPrefix=" + PREFIX);
        printed = out + "\n" + err;
    }

    @Test
    void everyTableFitsOneHundredTwentyColumnsAndLabelsTheFencingTokens() {
        assertThat(code).as(printed).isEqualTo(ExitCodes.OK);
        List<String> tooWide = printed.lines().filter(l -> l.length() > MAX_COLUMNS)
                .map(l -> l.length() + " columns: " + l).toList();
        assertThat(tooWide).as("lines wider than %d columns", MAX_COLUMNS).isEmpty();
        assertThat(printed).as(printed).contains("service#fencing token", "fencing token");
    }

    @Test
    void leavesNoKeyOfItsOwnInRedis() {
        assertThat(code).as(printed).isEqualTo(ExitCodes.OK);
        List<String> left = new ArrayList<>();
        try (Jedis jedis = new Jedis("127.0.0.1", 6379)) {
            ScanParams params = new ScanParams().match(PREFIX + "*").count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = jedis.scan(cursor, params);
                left.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
        assertThat(left).as("keys the demo left under %s", PREFIX).isEmpty();
    }
}
