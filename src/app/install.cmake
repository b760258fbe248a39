# Installing stepwise as a desktop program (cmake --install, and the .deb CPack makes of it):
# the binary, the scene files and lessons, a menu entry, icons, the manual, bash completion and a
# MIME type. The manual, completion and icons are written by the built program itself
# (stepwise --generate), so they follow its options and registries.
include(GNUInstallDirs)
set(share ${CMAKE_BINARY_DIR}/share)
set(desktop ${PROJECT_SOURCE_DIR}/assets/desktop)
set(icon_sizes 16 22 24 32 48 64 128 256)
set(generated ${share}/stepwise.1.gz ${share}/stepwise.bash ${share}/stepwise.svg
    ${share}/changelog.gz)
set(icon_commands "")
foreach(n ${icon_sizes})
  list(APPEND generated ${share}/stepwise-${n}.png)
  list(APPEND icon_commands COMMAND stepwise --generate icon-${n}.png ${share}/stepwise-${n}.png)
endforeach()
add_custom_command(OUTPUT ${generated}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${share}
  COMMAND stepwise --generate man ${share}/stepwise.1
  COMMAND gzip -9nf ${share}/stepwise.1
  COMMAND stepwise --generate bash-completion ${share}/stepwise.bash
  COMMAND stepwise --generate icon.svg ${share}/stepwise.svg
  ${icon_commands}
  COMMAND ${CMAKE_COMMAND} -E copy ${desktop}/changelog ${share}/changelog
  COMMAND gzip -9nf ${share}/changelog
  DEPENDS stepwise ${desktop}/changelog VERBATIM)
add_custom_target(stepwise_installed_files ALL DEPENDS ${generated})

# Debian's hardening: relocations read-only and bound at start (lintian's hardening-no-bindnow).
target_link_options(stepwise PRIVATE -Wl,-z,relro,-z,now)

install(TARGETS stepwise RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/scenes ${PROJECT_SOURCE_DIR}/assets/lessons
        DESTINATION ${CMAKE_INSTALL_DATADIR}/stepwise FILES_MATCHING PATTERN "*.toml")
install(FILES ${desktop}/stepwise.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${desktop}/stepwise.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages)
install(FILES ${share}/stepwise.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(n ${icon_sizes})
  install(FILES ${share}/stepwise-${n}.png RENAME stepwise.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${n}x${n}/apps)
endforeach()
install(FILES ${share}/stepwise.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${share}/stepwise.bash RENAME stepwise
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${desktop}/copyright ${share}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})

# ./dev package: a .deb whose dependencies dpkg-shlibdeps reads off the linked libraries.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME stepwise)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "stepwise maintainers <maintainers@users.noreply.a-seed-d09f731f.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "sandbox for rigid-particle dynamics")
# The summary is the package's first line; CPack indents the rest.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "stepwise moves spheres, clumps, boxes and convex polyhedra under contacts,
bonds and fields with a choice of ten translational integrators and five
rotation schemes, and shows the energy error of each live. Scenes range from
Kepler orbits and spinning tops to granular settling and bonded cube chains;
lessons play scripted comparisons, and runs can be recorded as video or
exported to LAMMPS.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ffmpeg")  # record and the window's video need it
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "lammps")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
    GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)
