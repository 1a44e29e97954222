import './grade.type';
import './grade.operations';
