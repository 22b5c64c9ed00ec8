package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of every module's README (each {@code README.md} one or two folders below the
 * project's, examples included) and of the user docs ({@code docs/*.md}) compiles as written, by
 * {@link JavaSnippets} as the top README's blocks do. They are compiled, not run: they name servers such as
 * {@code zk1:2181}. A block whose first line is an annotation is a member of the class ({@code @Bean} methods,
 * {@code @Component} classes); any other is the body of a method, in which the names these pages use without
 * declaring them ({@link #GIVEN}) are declared when a block uses them and does not declare them itself.
 */
class MarkdownExamplesTest {

    private static final Path PROJECT = Path.of("..");

    private static final List<String> IMPORTS = List.of("io.distlock.*", "io.distlock.jdbc.*", "io.distlock.redis.*",
            "io.distlock.shedlock.*", "io.distlock.micrometer.*", "io.distlock.spring.*",
            "io.micrometer.core.instrument.MeterRegistry", "org.springframework.context.event.EventListener",
            "org.springframework.stereotype.Component",
            "net.javacrumbs.shedlock.core.LockProvider", "org.springframework.context.annotation.Bean",
            "java.sql.Connection", "java.time.Duration", "java.util.Optional", "redis.clients.jedis.UnifiedJedis");

    /** What a block may use as given: a name and its declaration. */
    private static final Map<String, String> GIVEN = new LinkedHashMap<>();

    static {
        GIVEN.put("uri", "String uri = \"mem:\";");
        GIVEN.put("store", "LockStore store = null;");
        GIVEN.put("lease", "Lease lease = null;");
        GIVEN.put("meterRegistry", "MeterRegistry meterRegistry = null;");
        GIVEN.put("connection", "Connection connection = null;");
        GIVEN.put("jedis", "UnifiedJedis jedis = null;");
    }

    @TempDir
    Path work;

    @TestFactory
    Stream<DynamicTest> everyJavaBlockOfTheModuleReadmesAndDocsCompiles() throws Exception {
        Map<String, String> sources = new LinkedHashMap<>();
        Map<String, String> labels = new LinkedHashMap<>();
        List<Path> pages = new ArrayList<>(moduleReadmes());
        pages.addAll(docs());
        for (Path page : pages) {
            List<String> blocks = JavaSnippets.javaBlocks(Files.readString(page));
            String name = PROJECT.relativize(page).toString();
            for (int i = 0; i < blocks.size(); i++) {
                String block = blocks.get(i);
                String className = "Md_" + name.replaceAll("\\W", "_") + "_" + (i + 1);
                sources.put(className, source(className, block));
                labels.put(className, name + " java block " + (i + 1) + ": " + JavaSnippets.firstLine(block));
            }
        }
        assertThat(sources.keySet()).as("java blocks in the module READMEs")
                .anyMatch(c -> c.startsWith("Md_lock_")).hasSizeGreaterThanOrEqualTo(4);
        assertThat(sources.keySet()).as("java blocks in docs/*.md").anyMatch(c -> c.startsWith("Md_docs_"));
        Map<String, String> errors = JavaSnippets.compileAll(work, sources);
        return sources.keySet().stream().map(className -> DynamicTest.dynamicTest(labels.get(className),
                () -> assertThat(errors.get(className)).as("compiles as written:%n%s", sources.get(className))
                        .isEmpty()));
    }

    private static String source(String className, String block) {
        boolean member = block.strip().startsWith("@");
        return member ? JavaSnippets.classSource(className, IMPORTS, block, "")
                : JavaSnippets.classSource(className, IMPORTS, "", given(block) + block);
    }

    /** The declarations of the given names that {@code block} uses and does not declare (nor take as a lambda's). */
    private static String given(String block) {
        StringBuilder declarations = new StringBuilder();
        GIVEN.forEach((name, declaration) -> {
            boolean uses = Pattern.compile("\\b" + name + "\\b").matcher(block).find();
            boolean declares = Pattern.compile("[\\w>]\\s+" + name + "\\s*=|\\b" + name + "\\s*->").matcher(block)
                    .find();
            if (uses && !declares) {
                declarations.append("        ").append(declaration).append('\n');
            }
        });
        return declarations.toString();
    }

    /** The user docs: docs/*.md. */
    private static List<Path> docs() throws Exception {
        try (Stream<Path> files = Files.list(PROJECT.resolve("docs"))) {
            return files.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().toList();
        }
    }

    /** README.md one or two folders below the project's (lock-redis/README.md, examples/spring-boot-app/README.md). */
    private static List<Path> moduleReadmes() throws Exception {
        try (Stream<Path> files = Files.walk(PROJECT, 3)) {
            return files.filter(p -> p.getFileName().toString().equals("README.md"))
                    .filter(p -> !p.normalize().equals(PROJECT.resolve("README.md").normalize()))
                    .filter(p -> p.getNameCount() <= 4)
                    .filter(p -> !p.toString().contains("target") && !p.toString().contains("/."))
                    .sorted().toList();
        }
    }
}
