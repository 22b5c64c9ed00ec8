package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.fixture.StoreServers;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
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
 * Every {@code ```java} block of the top README compiles and runs as written ({@link JavaSnippets}), against the
 * Redis and PostgreSQL it names. Only their addresses change, where {@code ./mvnw verify} found the servers elsewhere
 * ({@link StoreServers}: an environment variable, Docker): {@code localhost:6379} and {@code localhost:5432} become
 * those servers. A block that opens no store gets {@code store}, a {@code mem:} store, as the README says. What the
 * examples write (the Redis hash {@code order:42}, the fence row {@code orders:42}) is removed before and after, so a
 * run's tokens never meet an earlier run's.
 */
class ReadmeExamplesTest {

    private static final Path README = Path.of("..", "README.md");
    private static final List<String> IMPORTS = List.of("io.distlock.Lease", "io.distlock.LockStore",
            "io.distlock.Leadership", "io.distlock.LeadershipListener", "io.distlock.DistributedSemaphore",
            "io.distlock.jdbc.SqlFence", "io.distlock.redis.RedisFence", "java.sql.Connection",
            "java.sql.DriverManager", "java.time.Duration", "java.util.Optional", "redis.clients.jedis.Jedis");

    /** The addresses the README's examples name, as they are written there. */
    private static final String README_REDIS_URI = "redis://localhost:6379";
    private static final String README_JEDIS = "new Jedis(\"localhost\", 6379)";
    private static final String README_POSTGRES_URL = "jdbc:postgresql://localhost:5432/test?user=postgres";

    @TempDir
    Path work;

    @BeforeEach
    @AfterEach
    void removeWhatTheExamplesWrite() throws Exception {
        URI redis = URI.create(StoreServers.redis());
        try (Jedis jedis = new Jedis(redis.getHost(), redis.getPort())) {
            jedis.del("order:42");
        }
        try (Connection db = DriverManager.getConnection(StoreServers.postgres());
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
        assertThat(String.join("", blocks)).as("the addresses this test replaces, as the README writes them")
                .contains(README_REDIS_URI, README_JEDIS, README_POSTGRES_URL);
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            String block = blocks.get(i);
            int number = i + 1;
            tests.add(DynamicTest.dynamicTest("README java block " + number + ": " + JavaSnippets.firstLine(block),
                    () -> compileAndRun("ReadmeExample" + number, block)));
        }
        return tests.stream();
    }

    /**
     * {@code block} with the README's server addresses replaced by calls to {@link StoreServers}, which give the
     * servers the build found (as calls, so a password in their URIs never shows in the source javac reports).
     */
    static String onTheServersFound(String block) {
        String servers = StoreServers.class.getName();
        String redisUri = "java.net.URI.create(" + servers + ".redis())";
        return block.replace("\"" + README_REDIS_URI + "\"", servers + ".redis()")
                .replace(README_JEDIS, "new Jedis(" + redisUri + ".getHost(), " + redisUri + ".getPort())")
                .replace("\"" + README_POSTGRES_URL + "\"", servers + ".postgres()");
    }

    private void compileAndRun(String className, String written) throws Exception {
        String block = onTheServersFound(written);
        boolean opensItsStore = block.contains("LockStore store =");
        String body = opensItsStore ? block
                : "        try (LockStore store = LockStore.open(\"mem:\")) {\n" + block + "        }\n";
        JavaSnippets.compile(work, className, JavaSnippets.classSource(className, IMPORTS, "", body));
        try (URLClassLoader loader = JavaSnippets.loader(work)) {
            Method run = loader.loadClass(className).getMethod("run");
            try {
                run.invoke(null);
            } catch (InvocationTargetException e) {
                throw new AssertionError("the README example failed when run:\n" + written, e.getCause());
            }
        }
    }
}
