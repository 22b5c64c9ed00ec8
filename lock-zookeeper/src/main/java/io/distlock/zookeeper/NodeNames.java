package io.distlock.zookeeper;

import io.distlock.Arguments;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Maps lock names to ZooKeeper node names and back. ZooKeeper forbids {@code /} inside a node name, the names
 * {@code .} and {@code ..}, control characters and some Unicode ranges, so every character outside
 * {@code [A-Za-z0-9_:-]} is written as its UTF-8 bytes in {@code %XX} form (the dot included). The mapping is
 * one-to-one, so distinct lock names never share a node.
 */
final class NodeNames {

    /** The longest lock name accepted: at most 9 encoded characters per name character, so at most 9 KiB a path. */
    static final int MAX_NAME_LENGTH = 1024;

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private NodeNames() {
    }

    /**
     * The node name for lock {@code name}.
     *
     * @throws IllegalArgumentException if {@code name} is not valid Unicode (an unpaired surrogate)
     */
    static String encode(String name) {
        if (allPlain(name)) {
            return name; // the common case: nothing to escape, so no encoder and no copy on every acquire
        }
        ByteBuffer utf8;
        try {
            utf8 = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(name));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("lock name " + Arguments.quoted(name)
                    + " is not valid Unicode (unpaired surrogate)", e);
        }
        StringBuilder out = new StringBuilder(name.length() + 16);
        while (utf8.hasRemaining()) {
            int c = utf8.get() & 0xFF;
            if (isPlain(c)) {
                out.append((char) c);
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return out.toString();
    }

    /**
     * The lock name of node {@code node}.
     *
     * @throws IllegalArgumentException if {@code node} is not the encoding of a lock name (a node distlock did not
     *         create)
     */
    static String decode(String node) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(node.length());
        for (int i = 0; i < node.length(); i++) {
            char c = node.charAt(i);
            if (c == '%') {
                if (i + 2 >= node.length()) {
                    throw new IllegalArgumentException("node name " + Arguments.quoted(node)
                            + " ends inside an escape");
                }
                int hi = Character.digit(node.charAt(i + 1), 16);
                int lo = Character.digit(node.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("node name " + Arguments.quoted(node)
                            + " has a bad escape at " + i);
                }
                int value = (hi << 4) | lo;
                if (isPlain(value)) {
                    throw new IllegalArgumentException("node name " + Arguments.quoted(node)
                            + " escapes a plain character");
                }
                bytes.write(value);
                i += 2;
            } else if (c < 0x80 && isPlain(c)) {
                bytes.write(c);
            } else {
                throw new IllegalArgumentException("node name " + Arguments.quoted(node) + " has an unescaped '" + c
                        + "'");
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("node name " + Arguments.quoted(node) + " is not UTF-8 once decoded", e);
        }
    }

    private static boolean allPlain(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (!isPlain(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPlain(int c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                || c == '_' || c == '-' || c == ':';
    }
}
