package io.distlock.zookeeper;

import io.distlock.spi.StoreUri;
import java.time.Duration;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A parsed {@code zookeeper://[user:password@]host[:port][,host[:port]...][/chroot][?options]} URI (alias
 * {@code zk://}). Options: {@code sessionTimeout} (default 30 s) and {@code connectionTimeout} (default 10 s, or the
 * session timeout if that is shorter), each in the duration syntax of {@link StoreUri#parseDuration} ({@code 5000},
 * {@code 500ms}, {@code 5s}, {@code 1m}, {@code PT5S}); {@code tls=true} with {@code trustStore},
 * {@code trustStorePassword}, {@code keyStore}, {@code keyStorePassword} and their {@code ...Type} (see
 * {@link ZooKeeperTls}). Read with {@link StoreUri}'s toolkit, so a password may hold
 * raw {@code @ / ? # % :}; {@link #toString()} never shows it.
 *
 * @param connectString the ensemble as ZooKeeper takes it: {@code h1:2181,h2:2181}
 * @param chroot the path all locks live under, without leading slash, or null for the root
 * @param user the digest user, or null for no authentication
 * @param password the digest password (never log it), or null
 * @param sessionTimeout how long the ensemble keeps a silent client's session, and so its locks
 * @param connectionTimeout how long an operation waits for a connection before the store is reported unavailable
 * @param tls the TLS settings ({@code tls=true} and its stores, see {@link ZooKeeperTls}), or null for plain TCP
 * @param redacted the URI as it may be shown: password replaced by {@code ***}
 */
record ZooKeeperUri(String connectString, String chroot, String user, String password, Duration sessionTimeout,
        Duration connectionTimeout, ZooKeeperTls tls, String redacted) {

    static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(30);
    static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);
    static final int DEFAULT_PORT = 2181;

    private static final Set<String> OPTIONS = options();
    private static final Duration MAX_TIMEOUT = Duration.ofMillis(Integer.MAX_VALUE);
    private static final Pattern CHROOT = Pattern.compile("[A-Za-z0-9_.:-]+(/[A-Za-z0-9_.:-]+)*");

    /**
     * Parses {@code uri}.
     *
     * @throws IllegalArgumentException naming what is wrong, without the password
     */
    static ZooKeeperUri parse(StoreUri uri) {
        String shown = uri.redacted();
        if (!uri.withoutQuery().startsWith("//")) {
            throw bad(shown, "expected " + uri.scheme() + "://host:2181[,host:2181...][/chroot]");
        }
        uri.requireKnownOptions(OPTIONS);
        StoreUri.Authority authority = uri.authority();
        String user = authority.user();
        String password = authority.password();
        if (user != null || password != null) {
            if (user == null || password == null) {
                throw bad(shown, "user info must be user:password for digest authentication");
            }
            if (password.isEmpty()) {
                throw bad(shown, "the digest password must not be empty");
            }
        }
        String chroot = authority.path();
        if (chroot.endsWith("/")) {
            chroot = chroot.substring(0, chroot.length() - 1);
        }
        if (chroot.isEmpty()) {
            chroot = null;
        }
        if (chroot != null && (!CHROOT.matcher(chroot).matches() || chroot.matches("(.*/)?\\.{1,2}(/.*)?"))) {
            throw bad(shown, "chroot '/" + chroot + "' must be a path of letters, digits, '_', '-', ':' and '.'");
        }
        Duration sessionTimeout = uri.durationOption("sessionTimeout", DEFAULT_SESSION_TIMEOUT, Duration.ofMillis(1),
                MAX_TIMEOUT);
        // a connection timeout longer than the session makes Curator warn and keeps waiters on a dead session
        Duration connectionDefault = sessionTimeout.compareTo(DEFAULT_CONNECTION_TIMEOUT) < 0
                ? sessionTimeout : DEFAULT_CONNECTION_TIMEOUT;
        Duration connectionTimeout = uri.durationOption("connectionTimeout", connectionDefault, Duration.ofMillis(1),
                MAX_TIMEOUT);
        return new ZooKeeperUri(connectString(authority), chroot, user, password, sessionTimeout, connectionTimeout,
                ZooKeeperTls.of(uri), shown);
    }

    private static Set<String> options() {
        Set<String> options = new java.util.HashSet<>(ZooKeeperTls.OPTIONS);
        options.addAll(Set.of("sessionTimeout", "connectionTimeout"));
        return Set.copyOf(options);
    }

    private static String connectString(StoreUri.Authority authority) {
        StringBuilder out = new StringBuilder();
        for (StoreUri.Host host : authority.hosts()) {
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(new StoreUri.Host(host.host(), host.portOr(DEFAULT_PORT)));
        }
        return out.toString();
    }

    private static IllegalArgumentException bad(String shown, String problem) {
        return new IllegalArgumentException("bad ZooKeeper store uri '" + shown + "': " + problem);
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return redacted;
    }
}
