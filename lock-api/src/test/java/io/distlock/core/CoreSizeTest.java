package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core and the SPI (main code) stay at most {@value #LIMIT} code lines, counted as lock-api's README counts
 * them: blank lines, {@code //} comments and {@code /* *}{@code /} blocks dropped (Javadoc is free; code is what a
 * reader has to follow). The limit is issue 30's; raise it only with a reason in the commit message.
 */
class CoreSizeTest {

    static final int LIMIT = 3_200;
    private static final List<Path> ROOTS = List.of(Path.of("src/main/java/io/distlock/core"),
            Path.of("src/main/java/io/distlock/spi"));

    @Test
    void coreAndSpiAreAtMostTheLimitInCodeLines() throws IOException {
        List<Path> files = javaFiles();
        assertThat(files).as("sources under %s (tests run in lock-api's directory)", ROOTS).isNotEmpty();
        int total = 0;
        StringBuilder perFile = new StringBuilder();
        for (Path file : files) {
            int lines = codeLines(Files.readString(file));
            total += lines;
            perFile.append(String.format("%n  %5d %s", lines, file.getFileName()));
        }
        assertThat(total).as("code lines of core+spi main sources (%d files), at most %d:%s", files.size(), LIMIT,
                perFile).isLessThanOrEqualTo(LIMIT);
    }

    @Test
    void theCountDropsCommentsAndBlanksButNotStringsThatLookLikeThem() {
        String source = String.join("\n", "package p;", "", "/** Javadoc", " * more */", "class A { // trailing",
                "    // whole line", "    String u = \"redis://h\"; /* inline */ char c = '\"';", "    /*", "    */",
                "    String s = \"/* not a comment\";", "}");
        assertThat(codeLines(source)).isEqualTo(5);
    }

    private static List<Path> javaFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path root : ROOTS) {
            try (Stream<Path> walk = Files.walk(root)) {
                files.addAll(walk.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList()));
            }
        }
        return files;
    }

    /** Lines that keep something other than white space once comments are taken out; quotes are respected. */
    static int codeLines(String source) {
        int count = 0;
        boolean inBlock = false;
        for (String line : source.split("\n", -1)) {
            boolean code = false;
            int i = 0;
            while (i < line.length()) {
                if (inBlock) {
                    int end = line.indexOf("*/", i);
                    if (end < 0) {
                        break;
                    }
                    inBlock = false;
                    i = end + 2;
                } else if (line.startsWith("/*", i)) {
                    inBlock = true;
                    i += 2;
                } else if (line.startsWith("//", i)) {
                    break;
                } else {
                    char c = line.charAt(i);
                    code |= !Character.isWhitespace(c);
                    i = c == '"' || c == '\'' ? afterQuoted(line, i) : i + 1;
                }
            }
            count += code ? 1 : 0;
        }
        return count;
    }

    private static int afterQuoted(String line, int open) {
        char quote = line.charAt(open);
        int i = open + 1;
        while (i < line.length() && line.charAt(i) != quote) {
            i += line.charAt(i) == '\\' ? 2 : 1;
        }
        return i + 1;
    }
}
