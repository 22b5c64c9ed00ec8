package io.distlock.tck.process;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path to give a child JVM so it sees the classes this JVM sees: the test class path under Surefire, the
 * context class loader's URLs under {@code exec:java}, else {@code java.class.path} (a shaded jar, a plain run).
 */
public final class JvmClassPath {

    private JvmClassPath() {
    }

    /** This JVM's class path, for a child JVM to run with. */
    public static String current() {
        String surefire = System.getProperty("surefire.test.class.path");
        if (surefire != null && !surefire.isBlank()) {
            return surefire;
        }
        if (Thread.currentThread().getContextClassLoader() instanceof URLClassLoader loader) {
            List<String> entries = new ArrayList<>();
            for (URL url : loader.getURLs()) {
                try {
                    entries.add(Path.of(url.toURI()).toString());
                } catch (URISyntaxException e) {
                    entries.add(url.getPath());
                }
            }
            if (!entries.isEmpty()) {
                return String.join(File.pathSeparator, entries);
            }
        }
        return absolute(System.getProperty("java.class.path"));
    }

    /**
     * {@code classPath} with every entry made absolute, so a child JVM started in another working directory (a
     * server's own temporary folder, say) finds the same files; {@code java -jar lock-cli/target/distlock.jar} gives a
     * relative one.
     */
    static String absolute(String classPath) {
        List<String> entries = new ArrayList<>();
        for (String entry : classPath.split(java.util.regex.Pattern.quote(File.pathSeparator))) {
            if (!entry.isEmpty()) {
                entries.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** The {@code java} binary of this JVM. */
    public static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
