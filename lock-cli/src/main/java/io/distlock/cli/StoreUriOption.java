package io.distlock.cli;

import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The required {@code --store URI} option shared by the subcommands that talk to one existing store. A URI that is
 * malformed or whose scheme no store on the class path claims is a usage error (exit 2) naming the problem.
 */
public final class StoreUriOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--store", required = true, paramLabel = "URI",
            description = {"Store URI, e.g. redis://127.0.0.1:6379, zookeeper://127.0.0.1:2181, mem:NAME,",
                "jdbc:mariadb://127.0.0.1:3306/test?user=root"})
    String uri;

    /** The URI as given. */
    public String uri() {
        return uri;
    }

    /** The URI with any password masked, for messages. */
    public String redacted() {
        return StoreUri.redact(uri);
    }

    /** Opens the store; see {@link StoreUris#open}. */
    public LockStore open() {
        return StoreUris.open(mixee.commandLine(), uri);
    }
}
