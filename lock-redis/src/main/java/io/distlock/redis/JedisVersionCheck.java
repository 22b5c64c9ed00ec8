package io.distlock.redis;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Refuses to open a Redis store on a Jedis older than 8 with one sentence saying what to set, instead of a
 * {@code NoClassDefFoundError} from deep inside the store. Jedis 8 is needed for its {@code RedisClient},
 * {@code RedisSentinelClient} and {@code RedisClusterClient}, which Jedis 7 does not have (its {@code JedisPooled},
 * which they replace, is gone from Jedis 8, so one build cannot use both). Spring Boot 4.0's dependency management
 * picks Jedis 7.0.0, and its {@code spring-boot-starter-parent} wins over any BOM an application imports.
 */
final class JedisVersionCheck {

    /** A class that Jedis 8 has and Jedis 7 lacks. */
    static final String JEDIS_8_CLASS = "redis.clients.jedis.RedisClient";

    /** The Jedis release this module is built and tested with. */
    static final String TESTED_VERSION = "8.0.2";

    private JedisVersionCheck() {
    }

    /** Throws {@link IllegalStateException} naming the Jedis found and the property to set, unless Jedis 8 is there. */
    static void requireJedis8() {
        ClassLoader loader = JedisVersionCheck.class.getClassLoader();
        try {
            Class.forName(JEDIS_8_CLASS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException("lock-redis needs Jedis 8 but found Jedis " + jedisVersion(loader)
                    + " on the class path (Spring Boot 4.0 manages 7.0.0): set <jedis.version>" + TESTED_VERSION
                    + "</jedis.version> in your pom's <properties> (Gradle: ext['jedis.version'] = '" + TESTED_VERSION
                    + "'), or depend on redis.clients:jedis:" + TESTED_VERSION + " directly");
        }
    }

    /** The version in Jedis' own {@code pom.properties}, or "unknown". */
    static String jedisVersion(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream("redis/clients/jedis/pom.properties")) {
            if (in == null) {
                return "(unknown version)";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "(unknown version)");
        } catch (IOException e) {
            return "(unknown version)";
        }
    }
}
