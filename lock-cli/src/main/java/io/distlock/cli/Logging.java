package io.distlock.cli;

/**
 * Keeps the clients' own logging (ZooKeeper, Curator, Jedis, HikariCP through slf4j-simple, the only SLF4J binding on
 * the command's class path) quiet on stderr, so the command's output stays readable: errors only in the command,
 * warnings in the demo's worker processes (whose stderr goes to a log file);
 * {@code -Dorg.slf4j.simpleLogger.defaultLogLevel=info} overrides it. distlock's own records (java.util.logging)
 * print on one line each.
 */
public final class Logging {

    private static final String LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";
    /** Held so the JDK does not forget the level set on it. */
    private static final java.util.logging.Logger DISTLOCK_LOGGER = java.util.logging.Logger.getLogger("io.distlock");

    private Logging() {
    }

    /**
     * Hides distlock's own warnings (java.util.logging), such as "lease lost: its store was closed" at the end of
     * every TCK test, which are expected while a command runs; errors still show.
     */
    public static void hideDistlockWarnings() {
        DISTLOCK_LOGGER.setLevel(java.util.logging.Level.SEVERE);
    }

    /**
     * Makes java.util.logging (distlock's own records, through {@link System.Logger}) print one line per record,
     * with {@link OneLineLogFormatter} on the root logger's handlers, unless the user configured java.util.logging
     * ({@code java.util.logging.config.file} or {@code .class}).
     */
    public static void oneLineRecords() {
        if (System.getProperty("java.util.logging.config.file") != null
                || System.getProperty("java.util.logging.config.class") != null) {
            return;
        }
        for (java.util.logging.Handler handler : java.util.logging.Logger.getLogger("").getHandlers()) {
            handler.setFormatter(new OneLineLogFormatter());
        }
    }

    /** Sets the default slf4j-simple level to {@code warn} unless the user chose one. */
    public static void quietByDefault() {
        quiet("warn");
    }

    /** Sets the default slf4j-simple level to {@code level} unless the user chose one. */
    public static void quiet(String level) {
        if (System.getProperty(LEVEL) == null) {
            System.setProperty(LEVEL, level);
        }
        if (System.getProperty("zookeeper.admin.enableServer") == null) {
            System.setProperty("zookeeper.admin.enableServer", "false");
        }
    }
}
