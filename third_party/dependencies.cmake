# Imports of Debian-packaged dependencies. Nothing here is copied source.
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(doctest REQUIRED)
find_package(tomlplusplus REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)

if(STEPWISE_CORE_ONLY)
  return()
endif()

# stb (PNG writing): Debian ships the implementations compiled in libstb.
find_library(STB_LIBRARY stb REQUIRED)
find_path(STB_INCLUDE_DIR stb/stb_image_write.h REQUIRED)
add_library(stb::stb INTERFACE IMPORTED)
target_include_directories(stb::stb INTERFACE ${STB_INCLUDE_DIR})
target_link_libraries(stb::stb INTERFACE ${STB_LIBRARY})

if(NOT STEPWISE_GUI)
  return()
endif()

find_package(glfw3 REQUIRED)
find_package(glm REQUIRED)
find_package(OpenGL REQUIRED)

# glad: the GL loader is generated here at configure time from the Khronos XML Debian ships.
set(GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
if(NOT EXISTS ${GLAD_DIR}/src/gl.c)
  execute_process(
    COMMAND /usr/bin/python3 /usr/bin/glad --api gl:core=4.5 --out-path ${GLAD_DIR} --reproducible
            --quiet c
    RESULT_VARIABLE glad_result ERROR_VARIABLE glad_error)
  if(NOT glad_result EQUAL 0 OR NOT EXISTS ${GLAD_DIR}/src/gl.c)
    message(FATAL_ERROR "glad failed to generate the GL loader (is python3-glad installed?):\n${glad_error}")
  endif()
endif()
add_library(glad STATIC ${GLAD_DIR}/src/gl.c)
target_include_directories(glad SYSTEM PUBLIC ${GLAD_DIR}/include)
set_target_properties(glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_compile_options(glad PRIVATE -w)

# Dear ImGui 1.86 from libimgui-dev; its GLFW and OpenGL 3 backends are compiled from the
# sources Debian ships as examples.
find_library(IMGUI_LIBRARY imgui REQUIRED)
find_path(IMGUI_INCLUDE_DIR imgui.h PATH_SUFFIXES imgui REQUIRED)
set(IMGUI_BACKENDS /usr/share/doc/libimgui-dev/examples/backends)
add_library(imgui_backends STATIC ${IMGUI_BACKENDS}/imgui_impl_glfw.cpp
                                  ${IMGUI_BACKENDS}/imgui_impl_opengl3.cpp)
target_include_directories(imgui_backends SYSTEM PUBLIC ${IMGUI_INCLUDE_DIR} ${IMGUI_INCLUDE_DIR}/backends)
target_link_libraries(imgui_backends PUBLIC ${IMGUI_LIBRARY} ${STB_LIBRARY} glfw OpenGL::GL ${CMAKE_DL_LIBS})
target_compile_options(imgui_backends PRIVATE -w)
# Not compiled together (a unity build): the two backends each declare their own GL loader.
set_target_properties(imgui_backends PROPERTIES UNITY_BUILD OFF)
add_library(imgui::imgui ALIAS imgui_backends)
