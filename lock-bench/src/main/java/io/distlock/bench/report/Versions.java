package io.distlock.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** Versions of the libraries on the class path, read from their Maven metadata, for the report. */
public final class Versions {

    /** group, artifact, and a class of the artifact whose jar manifest may name the version instead. */
    private static final String[][] LIBRARIES = {
        {"io.distlock", "lock-api", "io.distlock.LockStore"},
        {"io.distlock", "lock-redis", ""}, {"io.distlock", "lock-zookeeper", ""}, {"io.distlock", "lock-jdbc", ""},
        {"org.redisson", "redisson", "org.redisson.Redisson"}, {"redis.clients", "jedis", "redis.clients.jedis.Jedis"},
        {"org.apache.curator", "curator-recipes", "org.apache.curator.framework.recipes.locks.InterProcessMutex"},
        {"org.apache.zookeeper", "zookeeper", "org.apache.zookeeper.ZooKeeper"},
        {"org.springframework.integration", "spring-integration-jdbc",
            "org.springframework.integration.jdbc.lock.JdbcLockRegistry"},
        {"net.javacrumbs.shedlock", "shedlock-provider-jdbc-template",
            "net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider"},
        {"com.zaxxer", "HikariCP", "com.zaxxer.hikari.HikariDataSource"},
        {"org.mariadb.jdbc", "mariadb-java-client", "org.mariadb.jdbc.Driver"},
        {"org.postgresql", "postgresql", "org.postgresql.Driver"},
        {"org.hdrhistogram", "HdrHistogram", "org.HdrHistogram.Histogram"},
    };

    private Versions() {
    }

    /** {@code artifact version} for each known library, or {@code artifact (not on class path)}. */
    public static List<String> describe() {
        List<String> out = new ArrayList<>();
        for (String[] lib : LIBRARIES) {
            String version = version(lib[0], lib[1]);
            if (version.startsWith("(not") && !lib[2].isEmpty()) {
                version = manifestVersion(lib[2]).or(() -> pinnedVersion(lib)).orElse(version);
            }
            out.add(lib[1] + " " + version);
        }
        return out;
    }

    /**
     * The version the parent pom pins, for a library that is on the class path but whose manifest is gone (the
     * shaded jar keeps one manifest only).
     */
    private static java.util.Optional<String> pinnedVersion(String[] lib) {
        try (InputStream in = Versions.class.getResourceAsStream("versions.properties")) {
            if (in == null || !onClassPath(lib[2])) {
                return java.util.Optional.empty();
            }
            Properties p = new Properties();
            p.load(in);
            return java.util.Optional.ofNullable(p.getProperty(lib[1]));
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    private static boolean onClassPath(String className) {
        try {
            Class.forName(className, false, Versions.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static java.util.Optional<String> manifestVersion(String className) {
        try {
            Package p = Class.forName(className, false, Versions.class.getClassLoader()).getPackage();
            return java.util.Optional.ofNullable(p == null ? null : p.getImplementationVersion());
        } catch (ClassNotFoundException | LinkageError e) {
            return java.util.Optional.empty();
        }
    }

    /** The version of {@code group:artifact} on the class path, or {@code (not on class path)}. */
    public static String version(String group, String artifact) {
        String resource = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = Versions.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return "(not on class path)";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "?");
        } catch (IOException e) {
            return "(unreadable)";
        }
    }
}
