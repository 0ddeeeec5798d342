/* Loads a URDF into MuJoCo with verbatim inertials (mujoco_urdf.h). */
#include "mujoco_urdf.h"
#include "principal_inertia.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#define VFS_FILE_NAME "mcdyn_crosscheck.urdf"

static int is_element(const xmlNode *node, const char *name)
{
    return node->type == XML_ELEMENT_NODE && !xmlStrcmp(node->name, BAD_CAST name);
}

/* Removes the <visual> and <collision> children of every <link> and
 * writes every <inertial> in principal axes. Returns 0 or -1 (err). */
static int prepare_links(xmlNode *robot, char *err, int errlen)
{
    for (xmlNode *link = robot->children; link; link = link->next) {
        if (!is_element(link, "link")) continue;
        xmlNode *child = link->children;
        while (child) {
            xmlNode *next = child->next;
            if (is_element(child, "visual") || is_element(child, "collision")) {
                xmlUnlinkNode(child);
                xmlFreeNode(child);
            } else if (is_element(child, "inertial") &&
                       principal_inertia_rewrite(child, err, errlen) != 0) {
                return -1;
            }
            child = next;
        }
    }
    return 0;
}

/* <mujoco><compiler .../></mujoco>: URDF inertials used verbatim. */
static void add_compiler_options(xmlNode *robot, double mass_floor)
{
    static const char *const options[][2] = {
        {"fusestatic", "false"},
        {"discardvisual", "true"},
        {"inertiafromgeom", "false"},
        {"balanceinertia", "false"},
    };
    xmlNode *mujoco = xmlNewChild(robot, NULL, BAD_CAST "mujoco", NULL);
    xmlNode *compiler = xmlNewChild(mujoco, NULL, BAD_CAST "compiler", NULL);
    for (size_t i = 0; i < sizeof options / sizeof *options; i++)
        xmlNewProp(compiler, BAD_CAST options[i][0], BAD_CAST options[i][1]);
    char floor[32];
    snprintf(floor, sizeof floor, "%.17g", mass_floor);
    xmlNewProp(compiler, BAD_CAST "boundmass", BAD_CAST floor);
    xmlNewProp(compiler, BAD_CAST "boundinertia", BAD_CAST floor);
}

/* 1 if some <joint> has the link called name as its child. */
static int is_child_link(xmlNode *robot, const xmlChar *name)
{
    for (xmlNode *joint = robot->children; joint; joint = joint->next) {
        if (!is_element(joint, "joint")) continue;
        for (xmlNode *c = joint->children; c; c = c->next) {
            if (!is_element(c, "child")) continue;
            xmlChar *link = xmlGetProp(c, BAD_CAST "link");
            int same = link && !xmlStrcmp(link, name);
            xmlFree(link);
            if (same) return 1;
        }
    }
    return 0;
}

/* The name of the link that is nobody's child (caller frees), or NULL. */
static xmlChar *root_link_name(xmlNode *robot)
{
    for (xmlNode *link = robot->children; link; link = link->next) {
        if (!is_element(link, "link")) continue;
        xmlChar *name = xmlGetProp(link, BAD_CAST "name");
        if (name && !is_child_link(robot, name)) return name;
        xmlFree(name);
    }
    return NULL;
}

/* A floating joint from a link named "world", which MuJoCo's importer
 * takes as its own world body, to the root link. */
static int add_floating_joint(xmlNode *robot, char *err, int errlen)
{
    static const char world[] = "world";
    xmlChar *root = root_link_name(robot);
    if (!root || !xmlStrcmp(root, BAD_CAST world)) {
        snprintf(err, errlen, "the URDF has no root link other than '%s'", world);
        xmlFree(root);
        return -1;
    }
    xmlNewProp(xmlNewChild(robot, NULL, BAD_CAST "link", NULL), BAD_CAST "name", BAD_CAST world);
    xmlNode *joint = xmlNewChild(robot, NULL, BAD_CAST "joint", NULL);
    xmlNewProp(joint, BAD_CAST "name", BAD_CAST MUJOCO_URDF_FREE_JOINT);
    xmlNewProp(joint, BAD_CAST "type", BAD_CAST "floating");
    xmlNewProp(xmlNewChild(joint, NULL, BAD_CAST "parent", NULL), BAD_CAST "link", BAD_CAST world);
    xmlNewProp(xmlNewChild(joint, NULL, BAD_CAST "child", NULL), BAD_CAST "link", root);
    xmlFree(root);
    return 0;
}

/* Compiles the URDF text through a one-file MuJoCo virtual file system. */
static mjModel *load_from_memory(const xmlChar *text, int size, char *err, int errlen)
{
    mjVFS *vfs = malloc(sizeof *vfs); /* about 2 MB: not on the stack */
    if (!vfs) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    mj_defaultVFS(vfs);
    mjModel *m = NULL;
    if (mj_makeEmptyFileVFS(vfs, VFS_FILE_NAME, size) != 0) {
        snprintf(err, errlen, "cannot make a MuJoCo VFS file");
    } else {
        memcpy(vfs->filedata[mj_findFileVFS(vfs, VFS_FILE_NAME)], text, (size_t)size);
        m = mj_loadXML(VFS_FILE_NAME, vfs, err, errlen);
    }
    mj_deleteVFS(vfs);
    free(vfs);
    return m;
}

mjModel *mujoco_load_urdf(const char *path, const mujoco_urdf_options *opt, char *err, int errlen)
{
    /* RECOVER: bullet3's humanoid.urdf declares XML version "0.0". */
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_RECOVER);
    xmlNode *robot = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!robot || !is_element(robot, "robot")) {
        snprintf(err, errlen, "%s: not a URDF file", path);
        xmlFreeDoc(doc);
        return NULL;
    }
    mjModel *m = NULL;
    int status = prepare_links(robot, err, errlen);
    add_compiler_options(robot, opt->mass_floor);
    if (status == 0 && opt->floating_base) status = add_floating_joint(robot, err, errlen);
    if (status == 0) {
        xmlChar *text = NULL;
        int size = 0;
        xmlDocDumpMemory(doc, &text, &size);
        if (text) m = load_from_memory(text, size, err, errlen);
        xmlFree(text);
    }
    xmlFreeDoc(doc);
    return m;
}
