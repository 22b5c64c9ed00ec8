package io.distlock.spi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The character-level work behind {@link StoreUri}: finding where user info ends when a password holds raw
 * delimiters, lenient percent-decoding, and masking secrets. Kept apart so that the rules for "what is a secret
 * and where does it end" live in one place.
 */
final class UriText {

    /** Fragments of parameter names that carry secrets, lower case: every driver's password, key store and token. */
    private static final String[] SECRET_NAME_PARTS = {"password", "passwd", "pwd", "secret", "token", "credential",
        "keystore", "apikey", "api_key", "privatekey", "private_key"};
    static final String MASK = "***";
    /** For {@link #userInfoEnd} when parsing: an {@code @} after any parameter's assignment belongs to its value. */
    static final Predicate<String> ANY_NAME = name -> true;

    private UriText() {
    }

    /** The index just after the first {@code //}, or -1. */
    static int authorityStart(String s) {
        int i = s.indexOf("//");
        return i < 0 ? -1 : i + 2;
    }

    /**
     * The index of the {@code @} that ends the user info, or -1 if there is none. That is the last {@code @} after
     * {@code //} followed by something that can be a host list (up to {@code / ? # ;}), so raw {@code @ / ? # :}
     * inside a password are part of it, and not preceded by the assignment ({@code ?name=}, {@code &name=} or
     * {@code ;name=}) of a parameter whose name {@code valueHolds} takes: such an {@code @} belongs to that value.
     * Parsing passes every name ({@code ?user=admin@server}); redaction only secret ones ({@code ?password=s3@cret}
     * is masked on its own, and taken as the end of a user info it hid the port, the database and the user as well),
     * since there hiding too much is the safe side.
     */
    static int userInfoEnd(String s, Predicate<String> valueHolds) {
        int start = authorityStart(s);
        if (start < 0) {
            return -1;
        }
        for (int at = s.lastIndexOf('@'); at >= start; at = s.lastIndexOf('@', at - 1)) {
            if (hostLike(s, at + 1) && !holdsParameter(s, start, at, valueHolds)) {
                return at;
            }
        }
        return -1;
    }

    private static boolean hostLike(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '/' || c == '?' || c == '#' || c == ';') {
                return true;
            }
            if (c == '=' || c == '&' || c == '@' || Character.isWhitespace(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code s[from, to)} assigns ({@code ?name=}, {@code &name=}, {@code ;name=}) a name {@code counts} takes.
     */
    private static boolean holdsParameter(String s, int from, int to, Predicate<String> counts) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '?' || c == '&' || c == ';') {
                int j = i + 1;
                while (j < to && isNameChar(s.charAt(j))) {
                    j++;
                }
                if (j > i + 1 && j < to && s.charAt(j) == '=' && counts.test(s.substring(i + 1, j))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-' || c == '%';
    }

    /**
     * Percent-decodes {@code s} as UTF-8. A {@code %} not followed by two hex digits stays as it is (a raw
     * {@code %} in a password), and nothing of {@code s} ever reaches an exception message. With
     * {@code plusIsSpace}, {@code +} means a space (form encoding, used in query strings).
     */
    static String decode(String s, boolean plusIsSpace) {
        if (s.indexOf('%') < 0 && !(plusIsSpace && s.indexOf('+') >= 0)) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()) {
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi >= 0 && lo >= 0) {
                    out.write(hi * 16 + lo);
                    i += 2;
                    continue;
                }
            }
            if (c == '+' && plusIsSpace) {
                out.write(' ');
            } else {
                byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    bytes = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                out.write(bytes, 0, bytes.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Whether a parameter called {@code name} (decoded or not) carries a secret. */
    static boolean isSecretName(String name) {
        String n = decode(name, true).toLowerCase(Locale.ROOT);
        if (n.endsWith("pass")) {
            return true;
        }
        for (String part : SECRET_NAME_PARTS) {
            if (n.contains(part)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code uri} with every secret replaced by {@link #MASK}: the password of the user info (or the whole user info
     * when it has no colon, since a lone part may be a password), and the value of every secret-bearing parameter
     * ({@code ?}, {@code &}, {@code ;} or {@code (}{@code ,}-separated, up to the next {@code &}, {@code ;} or
     * {@code )}).
     */
    static String redact(String uri) {
        boolean[] masked = new boolean[uri.length()];
        int at = userInfoEnd(uri, UriText::isSecretName);
        if (at >= 0) {
            int start = authorityStart(uri);
            int colon = uri.indexOf(':', start);
            int from = colon >= 0 && colon < at ? colon + 1 : start;
            if (from < at) {
                Arrays.fill(masked, from, at, true);
            }
        }
        maskSecretParameters(uri, masked);
        StringBuilder out = new StringBuilder(uri.length());
        for (int i = 0; i < uri.length(); i++) {
            if (!masked[i]) {
                out.append(uri.charAt(i));
            } else if (i == 0 || !masked[i - 1]) {
                out.append(MASK);
            }
        }
        return out.toString();
    }

    private static void maskSecretParameters(String uri, boolean[] masked) {
        int i = 0;
        while (i < uri.length()) {
            char c = uri.charAt(i);
            if (c == '?' || c == '&' || c == ';' || c == '(' || c == ',') {
                int nameEnd = i + 1;
                while (nameEnd < uri.length() && (isNameChar(uri.charAt(nameEnd)) || uri.charAt(nameEnd) == ' ')) {
                    nameEnd++;
                }
                if (nameEnd > i + 1 && nameEnd < uri.length() && uri.charAt(nameEnd) == '='
                        && isSecretName(uri.substring(i + 1, nameEnd).strip())) {
                    int valueEnd = nameEnd + 1;
                    while (valueEnd < uri.length() && "&;)".indexOf(uri.charAt(valueEnd)) < 0) {
                        valueEnd++;
                    }
                    if (valueEnd > nameEnd + 1) {
                        Arrays.fill(masked, nameEnd + 1, valueEnd, true);
                    }
                    i = valueEnd;
                    continue;
                }
            }
            i++;
        }
    }
}
