package io.distlock.cli;

import io.distlock.Arguments;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A plain-text table with a header row and left-aligned columns, sized to their widest cell. */
public final class TextTable {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    /** A table with these column headings. */
    public TextTable(String... header) {
        this.header = List.of(header);
    }

    /**
     * Adds a row; missing cells are blank, nulls print as blank. Cells are shown {@link Arguments#printable}: names and
     * owners are written by any client, and a line break or a terminal escape in one must not reach the operator raw.
     */
    public TextTable row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            Object cell = i < cells.length ? cells[i] : null;
            row.add(cell == null ? "" : Arguments.printable(cell.toString()));
        }
        rows.add(row);
        return this;
    }

    /** The number of data rows. */
    public int size() {
        return rows.size();
    }

    /** Prints the table, each line indented by {@code indent}. */
    public void print(PrintWriter out, String indent) {
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = header.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        printRow(out, indent, header, widths);
        char[] rule = new char[Arrays.stream(widths).sum() + 2 * (widths.length - 1)];
        Arrays.fill(rule, '-');
        out.println(indent + new String(rule));
        for (List<String> row : rows) {
            printRow(out, indent, row, widths);
        }
        out.flush();
    }

    private static void printRow(PrintWriter out, String indent, List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder(indent);
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            line.append(cell);
            if (i < cells.size() - 1) {
                line.append(" ".repeat(widths[i] - cell.length() + 2));
            }
        }
        out.println(line.toString().stripTrailing());
    }
}
