# Imports of Debian-packaged dependencies. Nothing here is copied source.
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(doctest REQUIRED)
find_package(tomlplusplus REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)
