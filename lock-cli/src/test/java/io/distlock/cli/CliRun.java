package io.distlock.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/** One run of the {@code distlock} command in this JVM: its exit code and what it printed. */
record CliRun(int exitCode, String out, String err) {

    /** Runs {@code distlock args} with {@code stdin} as its input. */
    static CliRun withInput(String stdin, String... args) {
        return withInput(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), args);
    }

    /** Runs {@code distlock args} reading its input from {@code stdin}. */
    static CliRun withInput(java.io.InputStream stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = DistlockMain.run(stdin, new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Runs {@code distlock args} with empty input. */
    static CliRun of(String... args) {
        return withInput("", args);
    }

    /** Everything printed, for messages. */
    String all() {
        return out + err;
    }
}
