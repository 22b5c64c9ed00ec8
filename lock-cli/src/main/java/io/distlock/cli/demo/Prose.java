package io.distlock.cli.demo;

import java.io.PrintWriter;

/** Prints the demo's sentences wrapped at word boundaries so that no line is wider than {@link #COLUMNS}. */
final class Prose {

    /** The widest line the demo prints (its tables are laid out to fit it too). */
    static final int COLUMNS = 120;

    private Prose() {
    }

    /** Prints {@code text} after {@code indent}, continuing on lines indented by {@code indent} plus two spaces. */
    static void println(PrintWriter out, String indent, String text) {
        StringBuilder line = new StringBuilder(indent);
        int start = line.length();
        for (String word : text.split(" ")) {
            if (line.length() > start && line.length() + 1 + word.length() > COLUMNS) {
                out.println(line);
                line = new StringBuilder(indent + "  ");
                start = line.length();
            }
            if (line.length() > start) {
                line.append(' ');
            }
            line.append(word);
        }
        out.println(line);
    }
}
