package io.distlock.cli.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.UnaryOperator;

/**
 * A small text file that several processes update, each update made atomic by an operating-system file lock. It
 * stands for the storage the demo's services share (a database row): one update is atomic, but a read followed by
 * a separate write is not, which is the race the demo shows.
 */
final class LockedFile {

    private final Path path;

    LockedFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** Reads the whole file under the lock. */
    String read() {
        return update(UnaryOperator.identity());
    }

    /** Replaces the file's content. */
    void write(String content) {
        update(old -> content);
    }

    /**
     * Replaces the content with {@code change.apply(old)} in one step no other process can interleave with.
     *
     * @return the new content
     */
    String update(UnaryOperator<String> change) {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            channel.lock(); // an OS lock across processes, released when the channel closes (also on failure)
            ByteBuffer buffer = ByteBuffer.allocate((int) channel.size());
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // read it all
            }
            String old = new String(buffer.array(), StandardCharsets.UTF_8);
            String next = change.apply(old);
            if (!next.equals(old)) {
                channel.truncate(0);
                channel.write(ByteBuffer.wrap(next.getBytes(StandardCharsets.UTF_8)), 0);
                channel.force(false);
            }
            return next;
        } catch (IOException e) {
            throw new UncheckedIOException("could not update " + path, e);
        }
    }
}
