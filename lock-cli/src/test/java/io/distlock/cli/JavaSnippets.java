package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;

/**
 * The {@code ```java} blocks of a Markdown file, wrapped into a class and compiled with javax.tools against the
 * test's class path, as the README tests check them. A line that is only {@code ...} stands for the reader's own
 * code and compiles as a comment.
 */
final class JavaSnippets {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern ELISION = Pattern.compile("(?m)^(\\s*)\\.\\.\\.\\s*$");

    private JavaSnippets() {
    }

    /** The content of every {@code ```java} block, in order. */
    static List<String> javaBlocks(String markdown) {
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(markdown);
        while (m.find()) {
            blocks.add(ELISION.matcher(m.group(1)).replaceAll("$1// ..."));
        }
        return blocks;
    }

    /**
     * The source of class {@code className}: the imports, then {@code members} in the class body, then a method
     * {@code public static void run() throws Exception} whose body is {@code body}.
     */
    static String classSource(String className, List<String> imports, String members, String body) {
        StringBuilder source = new StringBuilder();
        imports.forEach(i -> source.append("import ").append(i).append(";\n"));
        source.append("public class ").append(className).append(" {\n").append(members)
                .append("    public static void run() throws Exception {\n").append(body).append("    }\n}\n");
        return source.toString();
    }

    /** Compiles {@code source} as {@code className} into {@code work}; fails the test with javac's diagnostics. */
    static void compile(Path work, String className, String source) throws Exception {
        Path file = work.resolve(className + ".java");
        Files.writeString(file, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean compiled = javac.getTask(diagnostics, null, null,
                List.of("-classpath", classPath(), "-d", work.toString(), "-proc:none"), null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(file.toFile())).call();
        assertThat(compiled).as("compiles as written:%n%s%n%s", diagnostics, source).isTrue();
    }

    /**
     * Compiles the classes {@code sources} (class name to source) in one javac run, which is much faster than one run
     * per class on a long class path; returns each class's error diagnostics, empty for a class that compiled.
     */
    static Map<String, String> compileAll(Path work, Map<String, String> sources) throws Exception {
        List<File> files = new ArrayList<>();
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = work.resolve(source.getKey() + ".java");
            Files.writeString(file, source.getValue());
            files.add(file.toFile());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        javac.getTask(null, null, diagnostics, List.of("-classpath", classPath(), "-d", work.toString(), "-proc:none"),
                null, javac.getStandardFileManager(null, null, null).getJavaFileObjects(files.toArray(File[]::new)))
                .call();
        Map<String, String> errors = new LinkedHashMap<>();
        sources.keySet().forEach(name -> errors.put(name, ""));
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR && d.getSource() != null) {
                String name = Path.of(d.getSource().toUri()).getFileName().toString().replace(".java", "");
                errors.merge(name, "line " + d.getLineNumber() + ": " + d.getMessage(null) + "\n", String::concat);
            }
        }
        return errors;
    }

    /** A loader for the classes compiled into {@code work}, over the test's own. */
    static URLClassLoader loader(Path work) throws Exception {
        return new URLClassLoader(new URL[] {work.toUri().toURL()}, JavaSnippets.class.getClassLoader());
    }

    /** A short label for a block: its first line. */
    static String firstLine(String block) {
        String line = block.strip().lines().findFirst().orElse("");
        return line.length() > 60 ? line.substring(0, 60) + "..." : line;
    }

    /** The test's class path, for javac: Surefire's own list when it runs the test through a manifest-only jar. */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }
}
