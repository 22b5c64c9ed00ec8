package io.distlock.spi;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A store URI split into its scheme, the part after it, and its query parameters, with a {@link #redacted()} form
 * that is safe to log. Kept loose on purpose: {@code jdbc:h2:mem:x}, {@code mem:} and
 * {@code redis-cluster://h1:1,h2:2} are not all valid {@link java.net.URI}s.
 */
public final class StoreUri {

    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*");
    /** user:password@ up to the last '@' before the path, so a raw '@' inside a password is hidden too. */
    private static final Pattern USERINFO_PASSWORD = Pattern.compile("(//[^/@:?#]*:)[^/?#]*@");
    private static final Pattern PARAM_PASSWORD =
            Pattern.compile("(?i)([?&;](?:password|pwd|pass|secret)=)[^&;]*");

    private final String raw;
    private final String scheme;
    private final String rest;
    private final Map<String, String> params;

    private StoreUri(String raw, String scheme, String rest, Map<String, String> params) {
        this.raw = raw;
        this.scheme = scheme;
        this.rest = rest;
        this.params = params;
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
            throw new IllegalArgumentException("store uri must not be empty; expected for example redis://localhost:6379");
        }
        int colon = trimmed.indexOf(':');
        if (colon <= 0 || !SCHEME.matcher(trimmed.substring(0, colon)).matches()) {
            throw new IllegalArgumentException("store uri '" + redact(trimmed)
                    + "' has no scheme; expected for example redis://localhost:6379, zookeeper://localhost:2181, "
                    + "jdbc:postgresql://localhost/app or mem:");
        }
        String scheme = trimmed.substring(0, colon).toLowerCase(Locale.ROOT);
        String rest = trimmed.substring(colon + 1);
        return new StoreUri(trimmed, scheme, rest, parseQuery(rest));
    }

    private static Map<String, String> parseQuery(String rest) {
        int q = rest.indexOf('?');
        if (q < 0) {
            return Map.of();
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : rest.substring(q + 1).split("[&;]")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            params.put(key, value);
        }
        return Collections.unmodifiableMap(params);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** Replaces passwords in user info ({@code user:secret@}) and in {@code password=} parameters with {@code ***}. */
    public static String redact(String uri) {
        if (uri == null) {
            return null;
        }
        String s = USERINFO_PASSWORD.matcher(uri).replaceAll("$1***@");
        return PARAM_PASSWORD.matcher(s).replaceAll("$1***");
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

    /** Everything after {@code scheme:} up to the query. */
    public String withoutQuery() {
        int q = rest.indexOf('?');
        return q < 0 ? rest : rest.substring(0, q);
    }

    /** The query parameters, decoded, in order. */
    public Map<String, String> params() {
        return params;
    }

    /** A query parameter, or {@code fallback} when absent. */
    public String param(String name, String fallback) {
        return params.getOrDefault(name, fallback);
    }

    /** The URI with passwords replaced by {@code ***}: the only form to log or show. */
    public String redacted() {
        return redact(raw);
    }

    @Override
    public String toString() {
        return redacted();
    }
}
