# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# libkeiro.so: the OpenSM event plugin that registers keiro's engines.
# OpenSM dlopen()s "libkeiro.so" by that exact name, so the module is
# unversioned (-avoid-version) and installed into $(libdir) without its .la.
# Never link with -Wl,--no-undefined: the osm_* routing symbols are resolved
# from the opensm executable at load time.
lib_LTLIBRARIES += libkeiro.la
libkeiro_la_SOURCES = \
	plugin/plugin.cc \
	plugin/plugin_state.h \
	plugin/engine_callbacks.cc plugin/engine_callbacks.h \
	plugin/read_subnet.cc plugin/read_subnet.h \
	plugin/install_tables.cc plugin/install_tables.h \
	plugin/mcast_trees.cc plugin/mcast_trees.h \
	plugin/osm_logger.cc plugin/osm_logger.h \
	plugin/routed_state.cc plugin/routed_state.h \
	plugin/vl_cap.h \
	plugin/osm.h
libkeiro_la_CPPFLAGS = $(AM_CPPFLAGS) $(OSM_CPPFLAGS)
libkeiro_la_LDFLAGS = -module -avoid-version -shared \
	-Wl,--version-script=$(top_srcdir)/plugin/keiro.map
libkeiro_la_LIBADD = libkeirocore.la
EXTRA_libkeiro_la_DEPENDENCIES = $(top_srcdir)/plugin/keiro.map
EXTRA_DIST += plugin/keiro.map

# OpenSM finds the plugin through the dynamic linker: keep libkeiro.so, drop
# the libtool archive, and refresh the linker cache on a real install.
install-exec-hook: install-exec-keiro-plugin
install-exec-keiro-plugin:
	rm -f $(DESTDIR)$(libdir)/libkeiro.la
	if test -z "$(DESTDIR)" && command -v ldconfig >/dev/null 2>&1; then \
	  ldconfig || echo "keiro: ldconfig failed; run it as root so OpenSM finds libkeiro.so"; \
	fi
uninstall-hook: uninstall-keiro-plugin
uninstall-keiro-plugin:
	rm -f $(DESTDIR)$(libdir)/libkeiro.so
.PHONY: install-exec-keiro-plugin uninstall-keiro-plugin
