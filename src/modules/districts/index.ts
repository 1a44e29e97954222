import './district.policy';
import './district.type';
import './district.queries';
import './district.mutations';
