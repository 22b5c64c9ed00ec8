package io.distlock.cli;

import io.distlock.cli.chaos.ChaosCommand;
import io.distlock.cli.demo.DemoCommand;
import io.distlock.cli.explore.ExploreCommand;
import io.distlock.cli.tck.TckCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The top-level {@code distlock} command: only groups the subcommands and prints help when run alone. */
@Command(name = "distlock", mixinStandardHelpOptions = true, version = "distlock 0.1.0-SNAPSHOT",
        description = "One distributed-lock API over Redis, ZooKeeper and SQL stores: demo, compatibility kit, "
                + "fault suite, lock inspection, benchmark.",
        subcommands = {CommandLine.HelpCommand.class, DemoCommand.class, TckCommand.class, ChaosCommand.class,
            ExploreCommand.class, InspectCommand.class, ReleaseCommand.class, BenchCommand.class},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  ok", "  1  a check failed (TCK rule, demo result, fault-suite bar, lock not held)",
            "  2  usage error", "  3  store unavailable"})
public final class DistlockCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "a subcommand is required: demo, tck, chaos, explore, inspect, release or bench");
    }
}
