package io.distlock.spi;

import io.distlock.Arguments;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A store URI and the one toolkit every store reads it with: scheme, query options, the authority (user info, host
 * list, path), one duration syntax, whole-number and boolean options, a check that refuses unknown options, and a
 * {@link #redacted()} form that is safe to log. Kept loose on purpose: {@code jdbc:h2:mem:x}, {@code mem:} and
 * {@code redis-cluster://h1:1,h2:2} are not all valid {@link java.net.URI}s. A password may hold raw {@code @ / ? #
 * % :} (the user info ends at the last {@code @} before the host list); it never appears in {@link #toString()},
 * {@link #redacted()} or any message this class raises, and neither does the value of a secret-bearing parameter
 * ({@code password}, {@code sslpassword}, {@code trustStorePassword}, any {@code *password*}, {@code *secret*},
 * {@code *token*}, {@code *keystore*} name).
 */
public final class StoreUri {

    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*");
    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d{1,18})\\s*(ms|s|m|h)?");
    private static final String DURATION_EXAMPLES = "write for example 500ms, 2s, 1m, 1h or PT2S (a bare number is"
            + " milliseconds)";

    private final String raw;
    private final String scheme;
    private final String rest;
    private final int queryStart;
    private final Map<String, String> params;

    private StoreUri(String raw, String scheme, String rest) {
        this.raw = raw;
        this.scheme = scheme;
        this.rest = rest;
        int at = UriText.userInfoEnd(rest, UriText.ANY_NAME);
        this.queryStart = rest.indexOf('?', Math.max(at, 0));
        this.params = parseQuery(queryStart < 0 ? "" : rest.substring(queryStart + 1));
    }

    /**
     * Parses {@code uri}.
     *
     * @throws NullPointerException if {@code uri} is null
     * @throws IllegalArgumentException if it is blank or has no scheme
     */
    public static StoreUri parse(String uri) {
        Objects.requireNonNull(uri, "store uri must not be null");
        String trimmed = uri.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("store uri must not be empty; expected for example "
                    + "redis://localhost:6379");
        }
        int colon = trimmed.indexOf(':');
        if (colon <= 0 || !SCHEME.matcher(trimmed.substring(0, colon)).matches()) {
            throw new IllegalArgumentException("store uri '" + redact(trimmed)
                    + "' has no scheme; expected for example redis://localhost:6379, zookeeper://localhost:2181, "
                    + "jdbc:postgresql://localhost/app or mem:");
        }
        return new StoreUri(trimmed, trimmed.substring(0, colon).toLowerCase(Locale.ROOT),
                trimmed.substring(colon + 1));
    }

    private static Map<String, String> parseQuery(String query) {
        if (query.isEmpty()) {
            return Map.of();
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = UriText.decode(eq < 0 ? pair : pair.substring(0, eq), true);
            String value = eq < 0 ? "" : UriText.decode(pair.substring(eq + 1), true);
            params.put(key, value);
        }
        return Collections.unmodifiableMap(params);
    }

    /**
     * {@code uri} with secrets replaced by {@code ***}: the password of its user info ({@code user:secret@}), and
     * the value of every secret-bearing parameter ({@code password=}, {@code sslpassword=},
     * {@code trustStorePassword=}, H2's {@code ;PASSWORD=}, ...).
     */
    public static String redact(String uri) {
        return uri == null ? null : UriText.redact(uri);
    }

    /** Whether a parameter called {@code name} carries a secret (its value is never shown). */
    public static boolean isSecretParameter(String name) {
        return UriText.isSecretName(name);
    }

    /**
     * Percent-decodes a URI component as UTF-8; {@code +} stays a plus and a {@code %} not followed by two hex digits
     * stays as it is, so a raw {@code %} in a password survives and nothing is echoed in an exception.
     */
    public static String decode(String component) {
        return UriText.decode(component, false);
    }

    /**
     * Parses a duration the way every store reads it: {@code 500ms}, {@code 2s}, {@code 1m}, {@code 1h}, ISO-8601
     * ({@code PT2S}, {@code PT0.5S}), or a bare number of milliseconds.
     *
     * @throws IllegalArgumentException naming the text if it is none of these, or negative
     */
    public static Duration parseDuration(String text) {
        String s = text.strip();
        if (s.startsWith("-")) {
            throw new IllegalArgumentException("'" + text + "' must not be negative");
        }
        Matcher m = SIMPLE_DURATION.matcher(s.toLowerCase(Locale.ROOT));
        try {
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                String unit = m.group(2) == null ? "ms" : m.group(2);
                return switch (unit) {
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofMillis(n);
                };
            }
            Duration d = Duration.parse(s.toUpperCase(Locale.ROOT));
            if (!d.isNegative()) {
                return d;
            }
        } catch (ArithmeticException | DateTimeParseException e) {
            // reported below
        }
        throw new IllegalArgumentException("'" + text + "' is not a duration; " + DURATION_EXAMPLES);
    }

    /** The URI as given (may contain a password: never log it). */
    public String raw() {
        return raw;
    }

    /** The scheme in lower case, for example {@code redis} or {@code jdbc}. */
    public String scheme() {
        return scheme;
    }

    /** Everything after {@code scheme:}, query included. */
    public String schemeSpecificPart() {
        return rest;
    }

    /** Everything after {@code scheme:} up to the query (a {@code ?} inside a password does not start it). */
    public String withoutQuery() {
        return queryStart < 0 ? rest : rest.substring(0, queryStart);
    }

    /** The raw query after {@code ?}, or an empty string. */
    public String query() {
        return queryStart < 0 ? "" : rest.substring(queryStart + 1);
    }

    /**
     * The raw user info between the first {@code //} and the {@code @} before the host list (anywhere in the URI,
     * so also {@code jdbc:mysql://user:pw@host}), or null. Never log it.
     */
    public String userInfo() {
        int at = UriText.userInfoEnd(raw, UriText.ANY_NAME);
        return at < 0 ? null : raw.substring(UriText.authorityStart(raw), at);
    }

    /** The URI as given without its user info and the {@code @} after it (the URI itself if it has none). */
    public String withoutUserInfo() {
        int at = UriText.userInfoEnd(raw, UriText.ANY_NAME);
        return at < 0 ? raw : raw.substring(0, UriText.authorityStart(raw)) + raw.substring(at + 1);
    }

    /** The query parameters, decoded, in order. */
    public Map<String, String> params() {
        return params;
    }

    /** A query parameter, or {@code fallback} when absent. */
    public String param(String name, String fallback) {
        return params.getOrDefault(name, fallback);
    }

    /**
     * The authority of a {@code scheme://[user[:password]@]host[:port][,host[:port]...][/path]} URI.
     *
     * @throws IllegalArgumentException naming what is wrong (without the password): no {@code //}, no host, an
     *     empty host in the list, a bad port, an unclosed IPv6 address
     */
    public Authority authority() {
        String part = withoutQuery();
        if (!part.startsWith("//")) {
            throw bad("must look like " + scheme + "://host:port");
        }
        int at = UriText.userInfoEnd(part, UriText.ANY_NAME);
        String user = null;
        String password = null;
        int hostStart = 2;
        if (at >= 0) {
            String userInfo = part.substring(2, at);
            int colon = userInfo.indexOf(':');
            user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
            password = colon < 0 ? null : decode(userInfo.substring(colon + 1));
            if (user.isEmpty()) {
                user = null;
            }
            hostStart = at + 1;
        }
        int slash = part.indexOf('/', hostStart);
        String hostList = slash < 0 ? part.substring(hostStart) : part.substring(hostStart, slash);
        String path = slash < 0 ? "" : part.substring(slash + 1);
        if (hostList.isEmpty()) {
            throw bad("names no host; expected for example " + scheme + "://localhost:port");
        }
        List<Host> hosts = new ArrayList<>();
        for (String hostPort : hostList.split(",", -1)) {
            hosts.add(host(hostPort.strip()));
        }
        return new Authority(user, password, List.copyOf(hosts), path);
    }

    private Host host(String hostPort) {
        if (hostPort.isEmpty()) {
            throw bad("has an empty host in its host list");
        }
        String host = hostPort;
        String port = null;
        if (hostPort.startsWith("[")) { // [::1]:6379
            int close = hostPort.indexOf(']');
            if (close < 0) {
                throw bad("has an unclosed IPv6 host '" + hostPort + "'");
            }
            host = hostPort.substring(1, close);
            if (close + 1 < hostPort.length()) {
                if (hostPort.charAt(close + 1) != ':') {
                    throw bad("has a malformed host '" + hostPort + "'");
                }
                port = hostPort.substring(close + 2);
            }
        } else {
            int colon = hostPort.lastIndexOf(':');
            if (colon >= 0) {
                host = hostPort.substring(0, colon);
                port = hostPort.substring(colon + 1);
            }
        }
        if (host.isEmpty() || host.chars().anyMatch(c -> Character.isWhitespace(c) || c == '%' || c == '@')) {
            throw bad("has an invalid host name in '" + hostPort + "'");
        }
        if (port == null) {
            return new Host(host, -1);
        }
        try {
            int p = Integer.parseInt(port);
            if (p >= 1 && p <= 65535) {
                return new Host(host, p);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad("has an invalid port in '" + hostPort + "': expected a number from 1 to 65535");
    }

    /**
     * Refuses an option that is not in {@code known}, naming it and listing the known ones.
     *
     * @throws IllegalArgumentException for the first unknown option
     */
    public void requireKnownOptions(Collection<String> known) {
        requireKnownOptions("", known);
    }

    /**
     * Like {@link #requireKnownOptions(Collection)}, only for options whose name starts with {@code prefix} (the
     * others belong to someone else, for example a JDBC driver).
     */
    public void requireKnownOptions(String prefix, Collection<String> known) {
        for (String key : params.keySet()) {
            if (key.startsWith(prefix) && !known.contains(key)) {
                throw bad("has the unknown option " + Arguments.quoted(key) + "; known options: "
                        + new TreeSet<>(known));
            }
        }
    }

    /**
     * The option {@code name} read with {@link #parseDuration}, or {@code fallback} when absent.
     *
     * @throws IllegalArgumentException if it is not a duration or lies outside {@code min..max}
     */
    public Duration durationOption(String name, Duration fallback, Duration min, Duration max) {
        String v = params.get(name);
        if (v == null) {
            return fallback;
        }
        Duration d;
        try {
            d = parseDuration(v);
        } catch (IllegalArgumentException e) {
            if (v.strip().startsWith("-")) {
                throw bad("has option " + shown(name, v) + ", which must not be negative");
            }
            if (name.endsWith("Millis")) {
                throw bad("has option " + shown(name, v) + ", which is not a number of milliseconds; write for"
                        + " example 500");
            }
            throw bad("has option " + shown(name, v) + ", which is not a duration; " + DURATION_EXAMPLES);
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw bad("has option " + shown(name, v) + "; it must be at least " + show(min) + " and at most "
                    + show(max));
        }
        return d;
    }

    /**
     * The option {@code name} as a whole number, or {@code fallback} when absent.
     *
     * @throws IllegalArgumentException if it is not a whole number between {@code min} and {@code max}
     */
    public int intOption(String name, int fallback, int min, int max) {
        String v = params.get(name);
        if (v == null) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw bad("has option " + shown(name, v) + ", which is not a whole number");
        }
        if (n < min || n > max) {
            throw bad("has option " + shown(name, v) + "; it must be between " + min + " and " + max);
        }
        return (int) n;
    }

    /**
     * The option {@code name} as {@code true} or {@code false} (case-insensitive; present without a value means
     * true), or {@code fallback} when absent.
     */
    public boolean booleanOption(String name, boolean fallback) {
        String v = params.get(name);
        if (v == null) {
            return fallback;
        }
        if (v.isEmpty() || v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw bad("has option " + shown(name, v) + ", which must be true or false");
    }

    private static String shown(String name, String value) {
        return name + "='" + (isSecretParameter(name) ? UriText.MASK : value) + "'";
    }

    private static String show(Duration d) {
        return d.toMillis() + " ms";
    }

    private IllegalArgumentException bad(String problem) {
        return new IllegalArgumentException("store uri '" + redacted() + "' " + problem);
    }

    /** The URI with secrets replaced by {@code ***}: the only form to log or show. */
    public String redacted() {
        return redact(raw);
    }

    @Override
    public String toString() {
        return redacted();
    }

    /**
     * The part of {@code scheme://user:password@h1:1,h2:2/path} between {@code //} and the query.
     *
     * @param user the decoded user name, or null
     * @param password the decoded password, or null (never log it)
     * @param hosts at least one host
     * @param path the part after the host list without its leading slash, or an empty string
     */
    public record Authority(String user, String password, List<Host> hosts, String path) {

        /** Never shows the password. */
        @Override
        public String toString() {
            return "Authority[user=" + user + ", password=" + (password == null ? "none" : UriText.MASK)
                    + ", hosts=" + hosts + ", path=" + path + "]";
        }
    }

    /**
     * One {@code host[:port]} of a host list.
     *
     * @param host the host name or address (IPv6 without brackets)
     * @param port the port, or -1 when the URI gives none
     */
    public record Host(String host, int port) {

        /** The port, or {@code fallback} when the URI gives none. */
        public int portOr(int fallback) {
            return port < 0 ? fallback : port;
        }

        @Override
        public String toString() {
            String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
            return port < 0 ? h : h + ":" + port;
        }
    }
}
