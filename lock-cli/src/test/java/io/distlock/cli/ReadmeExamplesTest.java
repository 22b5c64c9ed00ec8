package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Every {@code ```java} block of the top README compiles and runs as written ({@link JavaSnippets}), against the local
 * Redis and PostgreSQL it names. A block that opens no store gets {@code store}, a {@code mem:} store, as the README
 * says. What the examples write (the Redis hash {@code order:42}, the fence row {@code orders:42}) is removed before
 * and after, so a run's tokens never meet an earlier run's.
 */
class ReadmeExamplesTest {

    private static final Path README = Path.of("..", "README.md");
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
        List<String> blocks = JavaSnippets.javaBlocks(Files.readString(README));
        assertThat(blocks).as("java blocks in %s", README).hasSizeGreaterThanOrEqualTo(5);
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            String block = blocks.get(i);
            int number = i + 1;
            tests.add(DynamicTest.dynamicTest("README java block " + number + ": " + JavaSnippets.firstLine(block),
                    () -> compileAndRun("ReadmeExample" + number, block)));
        }
        return tests.stream();
    }

    private void compileAndRun(String className, String block) throws Exception {
        boolean opensItsStore = block.contains("LockStore store =");
        String body = opensItsStore ? block
                : "        try (LockStore store = LockStore.open(\"mem:\")) {\n" + block + "        }\n";
        JavaSnippets.compile(work, className, JavaSnippets.classSource(className, IMPORTS, "", body));
        try (URLClassLoader loader = JavaSnippets.loader(work)) {
            Method run = loader.loadClass(className).getMethod("run");
            try {
                run.invoke(null);
            } catch (InvocationTargetException e) {
                throw new AssertionError("the README example failed when run:\n" + block, e.getCause());
            }
        }
    }
}
