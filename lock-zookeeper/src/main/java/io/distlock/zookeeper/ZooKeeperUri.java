package io.distlock.zookeeper;

import io.distlock.spi.StoreUri;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed {@code zookeeper://[user:password@]host[:port][,host[:port]...][/chroot][?options]} URI (alias
 * {@code zk://}). Options: {@code sessionTimeout} (default 30 s) and {@code connectionTimeout} (default 10 s, or the
 * session timeout if that is shorter), each
 * as milliseconds ({@code 5000}), with a unit ({@code 500ms}, {@code 5s}, {@code 1m}) or ISO-8601 ({@code PT5S}).
 * {@link #toString()} never shows the password.
 *
 * @param connectString the ensemble as ZooKeeper takes it: {@code h1:2181,h2:2181}
 * @param chroot the path all locks live under, without leading slash, or null for the root
 * @param user the digest user, or null for no authentication
 * @param password the digest password (never log it), or null
 * @param sessionTimeout how long the ensemble keeps a silent client's session, and so its locks
 * @param connectionTimeout how long an operation waits for a connection before the store is reported unavailable
 * @param redacted the URI as it may be shown: password replaced by {@code ***}
 */
record ZooKeeperUri(String connectString, String chroot, String user, String password, Duration sessionTimeout,
        Duration connectionTimeout, String redacted) {

    static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(30);
    static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);
    static final int DEFAULT_PORT = 2181;

    private static final Set<String> OPTIONS = Set.of("sessionTimeout", "connectionTimeout");
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+)(?::(\\d{1,5}))?");
    private static final Pattern WITH_UNIT = Pattern.compile("(\\d+)\\s*(ms|s|m)?");
    private static final Pattern CHROOT = Pattern.compile("[A-Za-z0-9_.:-]+(/[A-Za-z0-9_.:-]+)*");

    /**
     * Parses {@code uri}.
     *
     * @throws IllegalArgumentException naming what is wrong, without the password
     */
    static ZooKeeperUri parse(StoreUri uri) {
        String shown = redact(uri);
        String rest = uri.withoutQuery();
        if (!rest.startsWith("//")) {
            throw bad(shown, "expected " + uri.scheme() + "://host:2181[,host:2181...][/chroot]");
        }
        rest = rest.substring(2);
        String user = null;
        String password = null;
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            String userInfo = rest.substring(0, at);
            rest = rest.substring(at + 1);
            int colon = userInfo.indexOf(':');
            if (colon <= 0) {
                throw bad(shown, "user info must be user:password for digest authentication");
            }
            try {
                user = decode(userInfo.substring(0, colon));
                password = decode(userInfo.substring(colon + 1));
            } catch (IllegalArgumentException e) {
                throw bad(shown, "user info has a malformed %-escape");
            }
            if (password.isEmpty()) {
                throw bad(shown, "the digest password must not be empty");
            }
        }
        int slash = rest.indexOf('/');
        String hosts = slash < 0 ? rest : rest.substring(0, slash);
        String chroot = slash < 0 ? null : rest.substring(slash + 1);
        if (chroot != null && chroot.endsWith("/")) {
            chroot = chroot.substring(0, chroot.length() - 1);
        }
        if (chroot != null && chroot.isEmpty()) {
            chroot = null;
        }
        if (chroot != null && (!CHROOT.matcher(chroot).matches() || chroot.matches("(.*/)?\\.{1,2}(/.*)?"))) {
            throw bad(shown, "chroot '/" + chroot + "' must be a path of letters, digits, '_', '-', ':' and '.'");
        }
        Duration sessionTimeout = duration(uri, "sessionTimeout", DEFAULT_SESSION_TIMEOUT, shown);
        // a connection timeout longer than the session makes Curator warn and keeps waiters on a dead session
        Duration connectionDefault = sessionTimeout.compareTo(DEFAULT_CONNECTION_TIMEOUT) < 0
                ? sessionTimeout : DEFAULT_CONNECTION_TIMEOUT;
        return new ZooKeeperUri(connectString(hosts, shown), chroot, user, password, sessionTimeout,
                duration(uri, "connectionTimeout", connectionDefault, shown), shown);
    }

    /**
     * The URI with its password replaced by {@code ***}. Done here rather than by {@link StoreUri#redacted()}, whose
     * pattern stops at the first {@code @} or {@code /} and so would show the rest of a password containing one.
     */
    static String redact(StoreUri uri) {
        String raw = uri.raw();
        int start = raw.indexOf("//");
        if (start < 0) {
            return uri.redacted();
        }
        start += 2;
        int query = raw.indexOf('?', start);
        int end = query < 0 ? raw.length() : query;
        int at = raw.lastIndexOf('@', end - 1);
        if (at < start) {
            return uri.redacted();
        }
        int colon = raw.indexOf(':', start);
        String user = colon >= 0 && colon < at ? raw.substring(start, colon) : raw.substring(start, at);
        return raw.substring(0, start) + user + ":***" + raw.substring(at);
    }

    private static String connectString(String hosts, String shown) {
        if (hosts.isEmpty()) {
            throw bad(shown, "no host given");
        }
        StringBuilder out = new StringBuilder();
        for (String hostPort : hosts.split(",", -1)) {
            Matcher m = HOST_PORT.matcher(hostPort.strip());
            if (!m.matches()) {
                throw bad(shown, "'" + hostPort + "' is not host or host:port");
            }
            int port = m.group(2) == null ? DEFAULT_PORT : Integer.parseInt(m.group(2));
            if (port < 1 || port > 65535) {
                throw bad(shown, "port " + port + " is out of range 1-65535");
            }
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(m.group(1)).append(':').append(port);
        }
        return out.toString();
    }

    private static Duration duration(StoreUri uri, String option, Duration fallback, String shown) {
        for (String key : uri.params().keySet()) {
            if (!OPTIONS.contains(key)) {
                throw bad(shown, "unknown option '" + key + "'; known options are " + OPTIONS);
            }
        }
        String value = uri.param(option, null);
        if (value == null) {
            return fallback;
        }
        Duration d;
        Matcher m = WITH_UNIT.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "ms" : m.group(2);
            d = switch (unit) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofMillis(n);
            };
        } else {
            try {
                d = Duration.parse(value.strip());
            } catch (DateTimeParseException e) {
                throw bad(shown, option + "=" + value + " is not a duration; use for example 5000, 5s or PT5S");
            }
        }
        if (d.toMillis() < 1 || d.toMillis() > Integer.MAX_VALUE) {
            throw bad(shown, option + "=" + value + " must be between 1 ms and " + Integer.MAX_VALUE + " ms");
        }
        return d;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
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
