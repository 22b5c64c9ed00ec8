package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Every {@code ```java} block of the top README compiles and runs as written (javax.tools), against the local
 * Redis and PostgreSQL it names. A block that opens no store gets {@code store}, a {@code mem:} store, as the README
 * says. What the examples write (the Redis hash {@code order:42}, the fence row {@code orders:42}) is removed before
 * and after, so a run's tokens never meet an earlier run's.
 */
class ReadmeExamplesTest {

    private static final Path README = Path.of("..", "README.md");
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final List<String> IMPORTS = List.of("io.distlock.Lease", "io.distlock.LockStore",
            "io.distlock.Leadership", "io.distlock.LeadershipListener", "io.distlock.Semaphore",
            "io.distlock.jdbc.SqlFence", "io.distlock.redis.RedisFence", "java.sql.Connection",
            "java.sql.DriverManager", "java.time.Duration", "java.util.Optional", "redis.clients.jedis.Jedis");

    @TempDir
    Path work;

    @BeforeEach
    @AfterEach
    void removeWhatTheExamplesWrite() throws Exception {
        try (Jedis jedis = new Jedis("localhost", 6379)) {
            jedis.del("order:42");
        }
        try (Connection db = DriverManager.getConnection("jdbc:postgresql://localhost:5432/test?user=postgres");
                PreparedStatement delete = db.prepareStatement(
                        "DELETE FROM distlock_fences WHERE resource = 'orders:42'")) {
            if (db.getMetaData().getTables(null, null, "distlock_fences", null).next()) {
                delete.executeUpdate();
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> everyJavaBlockOfTheReadmeCompilesAndRuns() throws Exception {
        List<String> blocks = javaBlocks(Files.readString(README));
        assertThat(blocks).as("java blocks in %s", README).hasSizeGreaterThanOrEqualTo(5);
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            String block = blocks.get(i);
            int number = i + 1;
            tests.add(DynamicTest.dynamicTest("README java block " + number + ": " + firstLine(block),
                    () -> compileAndRun("ReadmeExample" + number, block)));
        }
        return tests.stream();
    }

    static List<String> javaBlocks(String markdown) {
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(markdown);
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    private void compileAndRun(String className, String block) throws Exception {
        boolean opensItsStore = block.contains("LockStore store =");
        StringBuilder source = new StringBuilder();
        IMPORTS.forEach(i -> source.append("import ").append(i).append(";\n"));
        source.append("public class ").append(className).append(" {\n")
                .append("    public static void run() throws Exception {\n");
        if (!opensItsStore) {
            source.append("        try (LockStore store = LockStore.open(\"mem:\")) {\n");
        }
        source.append(block);
        if (!opensItsStore) {
            source.append("        }\n");
        }
        source.append("    }\n}\n");
        Path file = work.resolve(className + ".java");
        Files.writeString(file, source);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean compiled = javac.getTask(diagnostics, null, null,
                List.of("-classpath", classPath(), "-d", work.toString(), "-proc:none"), null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(file.toFile())).call();
        assertThat(compiled).as("compiles as written:%n%s%n%s", diagnostics, source).isTrue();

        try (URLClassLoader loader = new URLClassLoader(new URL[] {work.toUri().toURL()},
                getClass().getClassLoader())) {
            Method run = loader.loadClass(className).getMethod("run");
            try {
                run.invoke(null);
            } catch (InvocationTargetException e) {
                throw new AssertionError("the README example failed when run:\n" + block, e.getCause());
            }
        }
    }

    /** The test's class path, for javac: Surefire's own list when it runs the test through a manifest-only jar. */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    private static String firstLine(String block) {
        String line = block.strip().lines().findFirst().orElse("");
        return line.length() > 60 ? line.substring(0, 60) + "..." : line;
    }

}
