package io.distlock.cli;

import io.distlock.LockStore;
import io.distlock.spi.StoreDiscovery;
import io.distlock.spi.StoreUri;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The required {@code --store URI} option shared by the subcommands that talk to one store. A URI that is malformed
 * or whose scheme no store on the class path claims is a usage error (exit 2) naming the problem.
 */
public final class StoreUriOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--store", required = true, paramLabel = "URI",
            description = "Store URI, e.g. redis://127.0.0.1:6379, zookeeper://127.0.0.1:2181, "
                    + "jdbc:mariadb://127.0.0.1:3306/test?user=root, mem:NAME")
    String uri;

    /** The URI as given. */
    public String uri() {
        return uri;
    }

    /** The URI with any password masked, for messages. */
    public String redacted() {
        return StoreUri.redact(uri);
    }

    /**
     * Opens the store.
     *
     * @throws ParameterException if the URI is malformed or names an unknown scheme
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached
     */
    public LockStore open() {
        validate();
        try {
            return LockStore.open(uri);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(mixee.commandLine(), "--store: " + StoreUri.redact(e.getMessage()), e);
        }
    }

    /** Checks the URI's form and scheme without connecting. */
    public void validate() {
        StoreUri parsed;
        try {
            parsed = StoreUri.parse(uri);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(mixee.commandLine(), "--store: " + e.getMessage());
        }
        if (!StoreDiscovery.availableSchemes().contains(parsed.scheme())) {
            throw new ParameterException(mixee.commandLine(), "--store: no distlock store for scheme '"
                    + parsed.scheme() + "' in " + parsed.redacted() + "; this build has "
                    + StoreDiscovery.availableSchemes());
        }
    }
}
