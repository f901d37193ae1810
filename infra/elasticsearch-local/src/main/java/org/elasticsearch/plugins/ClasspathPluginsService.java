package org.elasticsearch.plugins;

import java.util.List;
import org.elasticsearch.Version;
import org.elasticsearch.common.settings.Settings;

/**
 * Plugins found on the plain classpath instead of in a distribution's modules and plugins folders,
 * which a server run from Maven Central jars does not have. It lives in this package because
 * {@code LoadedPlugin} and {@code loadPlugin} are package-private.
 */
public final class ClasspathPluginsService extends PluginsService {
    private final List<LoadedPlugin> classpathPlugins;

    public ClasspathPluginsService(Settings settings, PluginsLoader loader, List<Class<? extends Plugin>> pluginClasses) {
        super(settings, null, loader);
        this.classpathPlugins = pluginClasses.stream().map(pluginClass -> load(pluginClass, settings)).toList();
    }

    private static LoadedPlugin load(Class<? extends Plugin> pluginClass, Settings settings) {
        PluginDescriptor descriptor = new PluginDescriptor(
            pluginClass.getSimpleName(), "loaded from the classpath", Version.CURRENT.toString(), Version.CURRENT.toString(),
            "17", pluginClass.getName(), null, List.of(), false, false, false, false);
        return new LoadedPlugin(descriptor, loadPlugin(pluginClass, settings, null), pluginClass.getClassLoader());
    }

    @Override
    protected List<LoadedPlugin> plugins() {
        return classpathPlugins;
    }
}
