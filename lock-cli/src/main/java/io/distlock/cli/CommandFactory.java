package io.distlock.cli;

import java.io.InputStream;
import picocli.CommandLine;

/**
 * Creates the subcommand objects, handing the ones that ask the operator a question the input stream to read the
 * answer from (stdin in the real command, a string in tests).
 */
final class CommandFactory implements CommandLine.IFactory {

    private final InputStream in;
    private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

    CommandFactory(InputStream in) {
        this.in = in;
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
        if (type == ReleaseCommand.class) {
            return type.cast(new ReleaseCommand(in));
        }
        return fallback.create(type);
    }
}
