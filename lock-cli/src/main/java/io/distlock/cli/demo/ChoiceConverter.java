package io.distlock.cli.demo;

import java.util.Arrays;
import java.util.Locale;
import picocli.CommandLine;

/** Reads {@code --scenario} values as written on the command line ({@code flash-sale}, {@code ALL}, ...). */
final class ChoiceConverter implements CommandLine.ITypeConverter<DemoCommand.Choice> {

    @Override
    public DemoCommand.Choice convert(String value) {
        String key = value.strip().toLowerCase(Locale.ROOT).replace('-', '_');
        for (DemoCommand.Choice c : DemoCommand.Choice.values()) {
            if (c.name().equals(key)) {
                return c;
            }
        }
        throw new CommandLine.TypeConversionException("'" + value + "' is not a scenario; expected one of "
                + Arrays.stream(DemoCommand.Choice.values()).map(c -> c.name().replace('_', '-')).toList());
    }
}
