package io.distlock.zookeeper;

import io.distlock.spi.StoreUri;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * The TLS settings of a store URI ({@code tls=true}, with an optional {@code trustStore} and, for servers that ask
 * for a client certificate, a {@code keyStore}), turned into the ZooKeeper client's own: its Netty socket
 * ({@code ClientCnxnSocketNetty}) with {@code zookeeper.client.secure}. The server's certificate must chain to the
 * trust store (the JVM's default trust store if none is given) and name the host connected to (ZooKeeper's host
 * name verification, always on). {@link #toString()} never shows a password.
 *
 * @param trustStore the trust store file, or null for the JVM's default trust
 * @param trustStorePassword its password (never log it), or null
 * @param trustStoreType {@code PKCS12}, {@code JKS} or {@code PEM}, or null to go by the file's extension
 * @param keyStore the client's key store file, or null for no client certificate
 * @param keyStorePassword its password (never log it), or null
 * @param keyStoreType as {@code trustStoreType}
 */
record ZooKeeperTls(String trustStore, String trustStorePassword, String trustStoreType, String keyStore,
        String keyStorePassword, String keyStoreType) {

    /** The URI options this class reads. */
    static final Set<String> OPTIONS = Set.of("tls", "trustStore", "trustStorePassword", "trustStoreType", "keyStore",
            "keyStorePassword", "keyStoreType");
    private static final Set<String> TYPES = Set.of("PKCS12", "JKS", "PEM");

    /**
     * The TLS settings of {@code uri}, or null if it does not ask for TLS.
     *
     * @throws IllegalArgumentException naming the option at fault (never its secret value)
     */
    static ZooKeeperTls of(StoreUri uri) {
        boolean tls = uri.booleanOption("tls", false);
        var params = uri.params();
        if (!tls) {
            for (String option : OPTIONS) {
                if (!option.equals("tls") && params.containsKey(option)) {
                    throw bad(uri, "option '" + option + "' needs tls=true");
                }
            }
            return null;
        }
        String trustStore = file(uri, "trustStore");
        String keyStore = file(uri, "keyStore");
        if (params.containsKey("trustStorePassword") && trustStore == null) {
            throw bad(uri, "option 'trustStorePassword' needs a trustStore");
        }
        if (params.containsKey("keyStorePassword") && keyStore == null) {
            throw bad(uri, "option 'keyStorePassword' needs a keyStore");
        }
        return new ZooKeeperTls(trustStore, params.get("trustStorePassword"), type(uri, "trustStoreType"), keyStore,
                params.get("keyStorePassword"), type(uri, "keyStoreType"));
    }

    private static String file(StoreUri uri, String option) {
        String value = uri.params().get(option);
        if (value == null) {
            return null;
        }
        if (value.isEmpty() || !Files.isReadable(Path.of(value))) {
            throw bad(uri, "option '" + option + "' names no readable file: '" + value + "'");
        }
        return value;
    }

    private static String type(StoreUri uri, String option) {
        String value = uri.params().get(option);
        if (value != null && !TYPES.contains(value.toUpperCase(java.util.Locale.ROOT))) {
            throw bad(uri, "option '" + option + "' must be one of " + TYPES + ", not '" + value + "'");
        }
        return value == null ? null : value.toUpperCase(java.util.Locale.ROOT);
    }

    private static IllegalArgumentException bad(StoreUri uri, String problem) {
        return new IllegalArgumentException("bad ZooKeeper store uri '" + uri.redacted() + "': " + problem);
    }

    /** The ZooKeeper client settings for these: the Netty socket, secure, with the stores given. */
    ZKClientConfig clientConfig() {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, "org.apache.zookeeper.ClientCnxnSocketNetty");
        config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        config.setProperty("zookeeper.ssl.hostnameVerification", "true");
        set(config, "zookeeper.ssl.trustStore.location", trustStore);
        set(config, "zookeeper.ssl.trustStore.password", trustStorePassword);
        set(config, "zookeeper.ssl.trustStore.type", trustStoreType);
        set(config, "zookeeper.ssl.keyStore.location", keyStore);
        set(config, "zookeeper.ssl.keyStore.password", keyStorePassword);
        set(config, "zookeeper.ssl.keyStore.type", keyStoreType);
        return config;
    }

    /**
     * Sets {@code key} unless {@code value} is null (then the JVM's {@code zookeeper.ssl.*} system property, if any,
     * stays, as the ZooKeeper client reads it). ZooKeeper's config logs the old and the new value when it replaces
     * one, so a password the JVM's system properties already set to another value is refused instead of replaced.
     */
    private static void set(ZKClientConfig config, String key, String value) {
        if (value == null) {
            return;
        }
        String before = config.getProperty(key);
        if (before != null && !before.equals(value) && key.endsWith("password")) {
            throw new IllegalArgumentException("the JVM's system property " + key + " is set too: give the password"
                    + " in the store URI or in the system property, not in both");
        }
        config.setProperty(key, value);
    }

    /** The files, never the passwords. */
    @Override
    public String toString() {
        return "ZooKeeperTls[trustStore=" + trustStore + ", keyStore=" + keyStore + "]";
    }
}
