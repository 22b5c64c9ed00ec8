package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Columns are as wide as their widest cell, with a rule under the header. */
class TextTableTest {

    @Test
    void alignsColumnsAndLeavesMissingCellsBlank() {
        StringWriter text = new StringWriter();
        new TextTable("NAME", "TOKEN", "OWNER").row("orders:42", 7, "host-a pid 12").row("x", null)
                .print(new PrintWriter(text), "  ");

        assertThat(text.toString().lines()).containsExactly(
                "  NAME       TOKEN  OWNER",
                "  -------------------------------",
                "  orders:42  7      host-a pid 12",
                "  x");
    }
}
