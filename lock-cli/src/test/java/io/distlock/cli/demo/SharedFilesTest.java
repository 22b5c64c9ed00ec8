package io.distlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's shared resources: a counter whose subtraction is one atomic step, and a fenced record. */
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
    void fencedRecordRefusesLowerTokensButPlainRecordDoesNot() {
        FencedRecord fenced = new FencedRecord(dir.resolve("fenced"), true);
        FencedRecord plain = new FencedRecord(dir.resolve("plain"), false);
        fenced.clear();
        plain.clear();

        assertThat(fenced.write(8, "B").accepted()).isTrue();
        FencedRecord.WriteResult stale = fenced.write(7, "A");
        assertThat(stale.accepted()).isFalse();
        assertThat(stale.highestToken()).isEqualTo(8);
        assertThat(stale.toString()).startsWith("REFUSED");
        assertThat(fenced.value()).isEqualTo("B");
        assertThat(fenced.write(8, "B again").accepted()).isTrue();

        plain.write(8, "B");
        assertThat(plain.write(7, "A").accepted()).isTrue();
        assertThat(plain.value()).isEqualTo("A");
    }
}
