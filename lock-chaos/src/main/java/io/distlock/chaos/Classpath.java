package io.distlock.chaos;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The class path to give worker JVMs: the test class path under Surefire, the project's under exec:java. */
final class Classpath {

    private Classpath() {
    }

    static String current() {
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
        return System.getProperty("java.class.path");
    }
}
