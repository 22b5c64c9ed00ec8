package io.distlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Configuration;

/**
 * An application on the starter whose build takes Spring Boot 4.0's managed Jedis (7.0.0) instead of Jedis 8: it
 * stops at start-up, and Spring Boot's failure report ({@link DistlockStoreFailureAnalyzer}) names the property to
 * set. The application runs in a class loader of its own,
 * with this test's class path but Jedis 7 in place of Jedis 8.
 */
class StarterOnBootManagedJedisTest {

    @Test
    void startingOnJedis7FailsNamingTheJedisVersionProperty() throws Exception {
        Path jedis7 = Path.of("target/boot-managed-jedis/jedis-7.0.0.jar");
        assertThat(jedis7).as("copied by the pom's boot-managed-jedis execution").exists();
        List<URL> classPath = new ArrayList<>();
        for (String entry : testClassPath().split(File.pathSeparator)) {
            if (!entry.replace('\\', '/').contains("/redis/clients/jedis/")) {
                classPath.add(Path.of(entry).toUri().toURL());
            }
        }
        classPath.add(jedis7.toUri().toURL());
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader app = new URLClassLoader("boot-managed-jedis-app", classPath.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            Thread.currentThread().setContextClassLoader(app);
            String failure = (String) app.loadClass(Application.class.getName()).getMethod("startupFailure")
                    .invoke(null);
            assertThat(failure).as("the start-up failure")
                    .contains("lock-redis needs Jedis 8 but found Jedis 7.0.0")
                    .contains("set <jedis.version>8.0.2</jedis.version> in your pom's <properties>");
            String printed = failure.substring(0, failure.indexOf("\ncauses:\n"));
            assertThat(printed).as("Spring Boot's report").contains("APPLICATION FAILED TO START")
                    .contains("distlock could not open its store: lock-redis needs Jedis 8 but found Jedis 7.0.0")
                    .contains("Action:")
                    .contains("Set <jedis.version>8.0.2</jedis.version> in your pom's <properties>");
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    /** Surefire's class path when it runs tests through a manifest-only jar, else this JVM's. */
    private static String testClassPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    /** A Boot application with only the starter, as a user's; run inside the Jedis 7 class loader. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    public static class Application {

        /**
         * Starts the application on the shared Redis; what Spring Boot printed and the messages of the failure's
         * causes, or "started".
         */
        public static String startupFailure() {
            PrintStream out = System.out;
            PrintStream err = System.err;
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
            System.setOut(capture);
            System.setErr(capture);
            try (var context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
                    .logStartupInfo(false).properties("spring.main.banner-mode=off",
                            "distlock.uri=redis://127.0.0.1:6379").run()) {
                return "started: " + context.getBean(io.distlock.LockStore.class);
            } catch (RuntimeException e) {
                StringBuilder messages = new StringBuilder("printed:\n")
                        .append(printed.toString(StandardCharsets.UTF_8))
                        .append("\ncauses:\n");
                for (Throwable t = e; t != null; t = t.getCause()) {
                    messages.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
                }
                return messages.toString();
            } finally {
                System.setOut(out);
                System.setErr(err);
            }
        }
    }
}
